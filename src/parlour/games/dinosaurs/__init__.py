"""Happy Little Dinosaurs: Point cards face down, Disasters, and a race up the Escape Route."""

from pathlib import Path

from ...core import GameEntry, Level
from .bots import HatchlingBot, SurvivorBot
from .engine import Dinosaurs
from .search import DinosaursSearch

GAME = Dinosaurs(
    bots={"survivor": SurvivorBot},
    search=DinosaursSearch(),  # hooks for the generic search bot, parlour.bots.mcts
    levels={  # for the lobby and the arena (builtin:easy|medium|hard); docs/bots.md
        "easy": Level(HatchlingBot, "Plays its highest Point card every round and never uses an Instant"),
        "medium": Level("survivor", "Weighs the points a card may win against the Disaster, keeps Instants for when"
                                    " they count"),
        "hard": Level("mcts", "Plays the rounds out ahead over guesses at the hidden hands before each move"),
    },
)

# where its companions live, for the registry (parlour.games) and its readers
ENTRY = GameEntry(
    GAME,
    assets=Path(__file__).parent,
    terminal=f"{__name__}.terminal",
    encoding="parlour.rl.encodings.dinosaurs",
)
