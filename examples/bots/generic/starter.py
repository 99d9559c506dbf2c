#!/usr/bin/env python3
"""A starter bot for any Parlour game, speaking the generic JSON protocol (docs/bots.md).

Each turn the arena writes one line: a JSON object with the game's id, your seat, how many turns
you have been asked before ("turn"), whether this is your first ("first"), your seat's view of the
game ("view") and every legal action ("legal"). You answer one line: one of those actions, as
JSON. This bot picks one at random; a real bot would look at the view and choose. Run it:

    parlour arena patchwork --bot mine='json:python3 examples/bots/generic/starter.py' --bot r=builtin:random

('json:' because Patchwork has its own protocol, which programs speak unless told otherwise.)
Debug output goes to standard error; standard output is for actions only, flushed after each.
"""

import json
import random
import sys

rng = random.Random(1)
for line in sys.stdin:  # one message per turn; the loop ends when the arena closes our input
    message = json.loads(line)
    legal = message["legal"]
    if message["first"]:
        print(f"playing {message['game']} in seat {message['seat']}", file=sys.stderr)
    action = rng.choice(legal)
    print(json.dumps(action), flush=True)
