"""A lesson made by the tests: its registry entry and this folder are all it takes to appear everywhere."""
