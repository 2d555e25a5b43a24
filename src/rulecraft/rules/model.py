"""The frozen, fully checked Ruleset built from a composed rule file (placeholder; filled by the engine work)."""
