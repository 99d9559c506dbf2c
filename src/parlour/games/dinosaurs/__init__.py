"""Happy Little Dinosaurs: Point cards face down, Disasters, and a race up the Escape Route."""

from .bots import SurvivorBot
from .engine import Dinosaurs

GAME = Dinosaurs()
GAME.bots = {"survivor": SurvivorBot}
