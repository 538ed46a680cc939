"""Ordvakt vision: read a board from a camera frame and propose the move (OpenCV)."""
