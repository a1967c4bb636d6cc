"""The host's verbs: the declared table, its dispatch and its handlers."""
