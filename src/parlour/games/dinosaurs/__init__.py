"""Happy Little Dinosaurs: Point cards face down, Disasters, and a race up the Escape Route."""

from .bots import HatchlingBot, SurvivorBot
from .engine import Dinosaurs
from .search import DinosaursSearch

GAME = Dinosaurs()
GAME.bots = {"survivor": SurvivorBot}
GAME.levels = {  # for the lobby and the arena (builtin:easy|medium|hard); docs/bots.md
    "easy": (HatchlingBot, "Plays its highest Point card every round and never uses an Instant"),
    "medium": ("survivor", "Weighs the points a card may win against the Disaster, keeps Instants for when they count"),
    "hard": ("mcts", "Plays the rounds out ahead over guesses at the hidden hands before each move"),
}
GAME.search = DinosaursSearch()  # hooks for the generic search bot, parlour.bots.mcts
