"""Waveform regression: interface signals tabulated from FST per clock edge, compared with reviewed goldens."""
