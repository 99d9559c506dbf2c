"""Happy Little Dinosaurs: Point cards face down, Disasters, and a race up the Escape Route."""

from .engine import Dinosaurs

GAME = Dinosaurs()
