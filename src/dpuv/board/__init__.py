"""The board: byte transports to a real or virtual board, and the `dpuv bringup` command."""
