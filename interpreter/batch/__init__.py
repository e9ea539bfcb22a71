"""Many games at once: worker processes (`simulation`, `worker`), a Ray cluster (`ray_cluster`),
what a game reports (`game_facts`), balance statistics (`balance`), the report (`report`) and the
progress bar (`progress`)."""
