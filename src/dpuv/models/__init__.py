"""Reference models written from the protocol specifications: plain Python and numpy, importable without a simulator."""
