"""The action forms a player fills in (harvest, family, crafts, council, travel, church) and
the payment editor."""
