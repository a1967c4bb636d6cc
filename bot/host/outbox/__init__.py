"""Everything the host sends: posts, typed kinds and addresses, the relay."""
