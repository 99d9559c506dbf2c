"""The store's tables: the one description of the schema, which the Alembic migrations
(:mod:`.migrations`) read and the store's SQL modules write through. It imports nothing but
SQLAlchemy.

To change a table: change it here, then ``parlour db revision -m "what changed"`` (see
:mod:`.migrations`), then the feature's SQL module (``accounts.py``, ``history.py``, ...).
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

rooms_table = sa.Table(
    "rooms", metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),       # JSON object
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # waiting | playing | over
    sa.Column("turn_timer", sa.Float, nullable=True),
    sa.Column("host_token", sa.String(64), nullable=False),  # sha256 hex of the host token
    sa.Column("seats", sa.Text, nullable=False),         # JSON list of seat records
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("rematch", sa.String(16), nullable=True),  # the room its players were invited to next
    # a turn-based room (store/notifications.py): pace, its turn's deadline, whether its passing was told
    sa.Column("pace", sa.String(16), nullable=True),     # turn-based; None: live
    sa.Column("deadline", sa.Float, nullable=True),      # a turn-based room's: when the turn's time runs out
    sa.Column("overdue", sa.Boolean, nullable=True),     # the deadline passed and the players were told
    sa.Column("coach", sa.Boolean, nullable=True),       # the coach at the table (hall/room/coach.py); None: off
    sa.Column("vote", sa.Text, nullable=True),           # JSON: the players' vote under way (hall/room/votes.py)
    sa.Index("rooms_by_deadline", "deadline"),
)

actions_table = sa.Table(
    "actions", metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
    sa.Column("turn", sa.Integer, primary_key=True, autoincrement=False),  # 0 for the first action
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.Text, nullable=False),        # the game's JSON action
    sa.Column("by", sa.String(16), nullable=False),      # player | bot | timer
    sa.Column("at", sa.Float, nullable=False),
)

# -- players (store/accounts.py, ratings.py, history.py): accounts, sessions, ratings, who played where
accounts_table = sa.Table(
    "accounts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(32), nullable=False),             # as shown
    sa.Column("name_key", sa.String(128), nullable=False, unique=True),  # hall/text.py's name_key: look-alikes one
    sa.Column("kind", sa.String(8), nullable=False),              # human | bot
    sa.Column("password", sa.String(255), nullable=True),         # Argon2id hash; None for a bot
    sa.Column("created", sa.Float, nullable=False),
)

sessions_table = sa.Table(
    "sessions", metadata,
    sa.Column("token", sa.String(64), primary_key=True),          # sha256 hex of the cookie's value
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

ratings_table = sa.Table(
    "ratings", metadata,
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),                # what is shown and ranked: mu - 3 sigma
    sa.Column("games", sa.Integer, nullable=False),               # rated games
    sa.Column("updated", sa.Float, nullable=False),
    sa.Index("ratings_by_game", "game", "rating"),
)

room_players_table = sa.Table(
    "room_players", metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("forfeit", sa.Boolean, nullable=False),             # the seat went to a bot mid-game
    sa.Column("rank", sa.Integer, nullable=True),                 # once the game is over; 1 won
    sa.Column("change", sa.Float, nullable=True),                 # the rating it gave, if rated
)

# -- ratings between the same two players (store/ratings.py): rated games per pair, pairs flagged -----
rated_pairs_table = sa.Table(
    "rated_pairs", metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
    sa.Column("first", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),   # the smaller id
    sa.Column("second", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),  # the larger one
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("rated_pairs_by_pair", "first", "second", "game", "at"),
)

flagged_pairs_table = sa.Table(
    "flagged_pairs", metadata,  # for the moderators: two accounts that met more often than is rated
    sa.Column("first", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("second", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("since", sa.Float, nullable=False),     # the first game not rated for it
    sa.Column("last", sa.Float, nullable=False),      # the latest
    sa.Column("unrated", sa.Integer, nullable=False),  # games not rated for it
    sa.Column("last_code", sa.String(16), nullable=False),  # the latest such room
)

# -- the cluster (store/leases.py, cluster.py): which hall process applies a room, the shared secret ---
room_leases_table = sa.Table(
    "room_leases", metadata,
    sa.Column("code", sa.String(16), primary_key=True),   # a room's code (no foreign key: a lease may come first)
    sa.Column("owner", sa.String(64), nullable=False),    # the hall process that holds it
    sa.Column("token", sa.BigInteger, nullable=False),    # the fencing token: +1 each time it changes hands
    sa.Column("expires", sa.Float, nullable=False),       # unless renewed before (the hall's clock)
)

cluster_settings_table = sa.Table(
    "cluster_settings", metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.String(128), nullable=False),    # (the forwarding secret is no longer kept here: 0006)
)

# -- the chat (store/rooms.py): each room's chat, system lines included ------------------------------
chat_table = sa.Table(
    "chat_lines", metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=False),  # 0 for the room's first line
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),    # player | spectator | system
    sa.Column("seat", sa.Integer, nullable=True),        # the writer's seat; None: a spectator, the hall
    sa.Column("name", sa.String(64), nullable=True),     # the writer's name as shown then
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("account", sa.Integer, nullable=True),     # the writer's account, if signed in (blocks filter by it)
    sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),  # by a moderator
)

# -- trust (store/social.py, moderation.py): friends, blocks, invitations, reports, moderators -------
follows_table = sa.Table(
    "follows", metadata,
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),  # who follows
    sa.Column("friend", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True, index=True),
    sa.Column("created", sa.Float, nullable=False),
)

blocks_table = sa.Table(
    "blocks", metadata,
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),  # who blocks
    sa.Column("blocked", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True, index=True),
    sa.Column("created", sa.Float, nullable=False),
)

invitations_table = sa.Table(
    "invitations", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("sender", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("recipient", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("room", sa.String(16), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("seen", sa.Boolean, nullable=False),
)

roles_table = sa.Table(
    "roles", metadata,
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("role", sa.String(16), primary_key=True),   # moderator
)

reports_table = sa.Table(
    "reports", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("account", sa.Integer, nullable=True, index=True),  # the reported player's account (None: a guest)
    sa.Column("name", sa.String(64), nullable=False),     # the reported player's name as shown then
    sa.Column("room", sa.String(16), nullable=True),
    sa.Column("line", sa.Integer, nullable=True),          # the chat line reported, by its number
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("evidence", sa.Text, nullable=False),       # JSON: a copy of the chat lines around it
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("status", sa.String(8), nullable=False),    # open | closed
)

sanctions_table = sa.Table(
    "sanctions", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(8), nullable=False),       # mute | ban | close (a room)
    sa.Column("account", sa.Integer, nullable=True, index=True),
    sa.Column("address", sa.String(64), nullable=True, index=True),  # a ban by address (guests)
    sa.Column("room", sa.String(16), nullable=True),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("starts", sa.Float, nullable=False),
    sa.Column("ends", sa.Float, nullable=True),            # None: for good
    sa.Column("lifted", sa.Boolean, nullable=False),
)

moderation_log_table = sa.Table(
    "moderation_log", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("moderator", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("action", sa.String(16), nullable=False),    # warn | mute | ban | unban | hide_line | close_room
    sa.Column("account", sa.Integer, nullable=True),
    sa.Column("target", sa.String(64), nullable=True),     # the player's name, an address or a room's code
    sa.Column("room", sa.String(16), nullable=True),
    sa.Column("line", sa.Integer, nullable=True),
    sa.Column("days", sa.Float, nullable=True),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("report", sa.Integer, nullable=True),        # the report it answers, if any
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("seen", sa.Boolean, nullable=False),         # a warning: the player has seen it
)

# -- bot accounts (store/bots.py): the API tokens a bot account's programs sign in with -----------------
api_tokens_table = sa.Table(
    "api_tokens", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("token", sa.String(64), nullable=False, unique=True),  # sha256 hex: the token itself is shown once
    sa.Column("label", sa.String(64), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("last_used", sa.Float, nullable=True),              # when a program last connected with it
)

# -- analyses (store/analyses.py): a finished game's moves judged by the search, made once
analyses_table = sa.Table(
    "analyses", metadata,
    sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
    sa.Column("made", sa.Float, nullable=False),
    sa.Column("budget", sa.Text, nullable=False),        # JSON: the search's rounds and width
    sa.Column("moves", sa.Text, nullable=False),         # JSON list: one judgement per move
)

# -- notifications (store/notifications.py): e-mail settings, push subscriptions, the outbox ---------
notify_settings_table = sa.Table(
    "notify_settings", metadata,
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("confirmed", sa.Boolean, nullable=False),           # the address's link was followed
    sa.Column("confirm_token", sa.String(64), nullable=True),     # sha256 hex of the pending link's token
    sa.Column("confirm_expires", sa.Float, nullable=True),
    sa.Column("turns", sa.Boolean, nullable=False),               # "your turn" alerts wanted
    sa.Column("daily", sa.Boolean, nullable=False),               # one summary a day wanted
    sa.Column("last_daily", sa.Float, nullable=True),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("invites", sa.Boolean, nullable=False, server_default=sa.true()),  # a friend's invitations (0014)
)

push_subscriptions_table = sa.Table(
    "push_subscriptions", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("endpoint", sa.String(2048), nullable=False),
    sa.Column("p256dh", sa.String(128), nullable=False),          # the browser's public key (base64url)
    sa.Column("auth", sa.String(64), nullable=False),             # its auth secret (base64url)
    sa.Column("created", sa.Float, nullable=False),
)

outbox_table = sa.Table(  # mail and push waiting to go, and what went (the rates count them)
    "outbox", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account", sa.Integer, nullable=True, index=True),
    sa.Column("channel", sa.String(8), nullable=False),           # mail | push
    sa.Column("recipient", sa.String(2048), nullable=False),      # an address; a push subscription's id
    sa.Column("kind", sa.String(16), nullable=False),             # confirm | turn | late | daily | invite ...
    sa.Column("subject", sa.String(200), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("link", sa.String(512), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("due", sa.Float, nullable=True),                    # None once sent or given up
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("sent", sa.Float, nullable=True),
    sa.Column("error", sa.String(300), nullable=True),            # the last failure, in words
    sa.Index("outbox_by_due", "due"),
    sa.Index("outbox_by_recipient", "recipient", "created"),
)

turn_alerts_table = sa.Table(  # a "your turn" went out for this game; none again until the player looks
    "turn_alerts", metadata,
    sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("code", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
)
