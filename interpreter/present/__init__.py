"""What a person reads: each player's view (`views`), the engine's own phrases in each language
(`phrases`), and the words of log lines, questions, options and the table (`words`)."""
