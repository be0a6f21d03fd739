"""Village rules, one module per rule; each mutates a VillageState in place."""
