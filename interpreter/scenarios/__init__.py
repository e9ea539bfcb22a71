"""Scenario files: a table arranged by statements, scripted decisions (`script`), and the expectations
checked after them (`run`)."""
