"""The plain data every layer of the engine shares: the table's state (`state`) and the one decision
interface (`decisions`). It imports nothing else of the engine."""
