/*
 * A starter bot for Patchwork in C, written from the rules document's "Game Input/Output" alone.
 *
 * It reads every line the referee sends, as the document describes them, and plays a simple
 * legal game: among the patches on offer that it can afford and fit on its quilt, it buys the
 * one with the best rough value (2 per square, its earning for each income event still ahead,
 * minus its price and time), or SKIPs when none is worth it. Build and run it in the arena:
 *
 *     gcc -O2 -o /tmp/starter examples/bots/patchwork/starter.c
 *     parlour arena patchwork --bot c=/tmp/starter --bot g=builtin:greedy
 *
 * Debug output goes to stderr (the arena writes it to a log file); stdout is for commands only,
 * one line per turn, flushed.
 */
#include <stdio.h>
#include <string.h>

#define SIZE 9      /* the quilt is 9x9: x counts columns from the left, y rows from the top */
#define MAX_SIDE 5  /* no patch is longer than 5 squares */

typedef struct {
    int id, earning, price, time;
    int height, width;
    char rows[MAX_SIDE][MAX_SIDE + 1]; /* 'O' is a square of the patch, '.' is not */
} Patch;

static char quilt[SIZE][SIZE]; /* my own quilt: the referee only shows the opponent's */

/* One "tile_id tile_earning tile_button_price tile_time_price tile_shape" line. */
static int read_patch(Patch *p) {
    char shape[64];
    if (scanf("%d %d %d %d %63s", &p->id, &p->earning, &p->price, &p->time, shape) != 5) return 0;
    /* the shape's rows are separated by '|' */
    p->height = 0;
    p->width = 0;
    for (char *row = strtok(shape, "|"); row != NULL; row = strtok(NULL, "|")) {
        strcpy(p->rows[p->height], row);
        p->width = (int)strlen(row);
        p->height++;
    }
    return 1;
}

/* The shape as laid: mirrored horizontally first if flip, then turned clockwise `rotations` times. */
static void transform(const Patch *src, int rotations, int flip, Patch *out) {
    *out = *src;
    if (flip) {
        for (int r = 0; r < out->height; r++)
            for (int c = 0; c < out->width; c++) out->rows[r][c] = src->rows[r][out->width - 1 - c];
    }
    for (int turn = 0; turn < rotations; turn++) {
        Patch before = *out;
        out->height = before.width;
        out->width = before.height;
        for (int r = 0; r < out->height; r++) {
            for (int c = 0; c < out->width; c++) out->rows[r][c] = before.rows[before.height - 1 - c][r];
            out->rows[r][out->width] = '\0';
        }
    }
}

static int fits(const Patch *laid, int x, int y) {
    if (x + laid->width > SIZE || y + laid->height > SIZE) return 0;
    for (int r = 0; r < laid->height; r++)
        for (int c = 0; c < laid->width; c++)
            if (laid->rows[r][c] == 'O' && quilt[y + r][x + c] != '.') return 0;
    return 1;
}

/* The first place a patch fits, scanning row by row: 1 and (rotations, flip, x, y), or 0. */
static int first_place(const Patch *p, int *rotations, int *flip, int *x, int *y) {
    Patch laid;
    for (*y = 0; *y < SIZE; (*y)++)
        for (*x = 0; *x < SIZE; (*x)++)
            for (*flip = 0; *flip < 2; (*flip)++)
                for (*rotations = 0; *rotations < 4; (*rotations)++) {
                    transform(p, *rotations, *flip, &laid);
                    if (fits(&laid, *x, *y)) return 1;
                }
    return 0;
}

static int squares(const Patch *p) {
    int n = 0;
    for (int r = 0; r < p->height; r++)
        for (int c = 0; c < p->width; c++) n += p->rows[r][c] == 'O';
    return n;
}

int main(void) {
    /* --- initialisation input: read once, before the first turn --- */
    int income_events, income_times[64], patch_events, patch_times[64], tiles;
    Patch game_patches[33];
    if (scanf("%d", &income_events) != 1) return 0;          /* how many "Button Income" events */
    for (int i = 0; i < income_events; i++) scanf("%d", &income_times[i]);  /* their times */
    scanf("%d", &patch_events);                               /* how many "Special Patch" events */
    for (int i = 0; i < patch_events; i++) scanf("%d", &patch_times[i]);    /* their times */
    scanf("%d", &tiles);                                      /* always 33 */
    for (int i = 0; i < tiles; i++) read_patch(&game_patches[i % 33]);      /* in game order */
    fprintf(stderr, "%d income events, %d special patches, %d patches\n", income_events, patch_events, tiles);
    memset(quilt, '.', sizeof quilt);

    /* --- game turns --- */
    for (;;) {
        int my_buttons, my_time, opponent_buttons, opponent_time, opponent_income, playable;
        char opponent_quilt[SIZE][SIZE + 8];
        Patch patches[3];
        if (scanf("%d %d", &my_buttons, &my_time) != 2) break; /* the match is over */
        scanf("%d %d %d", &opponent_buttons, &opponent_time, &opponent_income);
        for (int r = 0; r < SIZE; r++) scanf("%15s", opponent_quilt[r]); /* 'O' taken, '.' empty */
        scanf("%d", &playable); /* 3 in a normal turn (fewer at the very end), 1 for a special patch */
        for (int i = 0; i < playable; i++) read_patch(&patches[i]);

        int income_left = 0;
        for (int i = 0; i < income_events; i++) income_left += income_times[i] > my_time;
        int best = -1, best_value = 0, best_place[4];
        for (int i = 0; i < playable; i++) {
            int place[4];
            if (patches[i].price > my_buttons) continue; /* buying what you cannot pay for loses */
            if (!first_place(&patches[i], &place[0], &place[1], &place[2], &place[3])) continue;
            int value = 2 * squares(&patches[i]) + patches[i].earning * income_left - patches[i].price - patches[i].time;
            if (patches[i].id < 0) value = 1000; /* a special patch must be placed: SKIP would lose */
            if (best < 0 || value > best_value) {
                best = i;
                best_value = value;
                memcpy(best_place, place, sizeof place);
            }
        }
        if (best < 0 || best_value < 0) {
            printf("SKIP\n");
        } else {
            Patch laid;
            transform(&patches[best], best_place[0], best_place[1], &laid);
            for (int r = 0; r < laid.height; r++)
                for (int c = 0; c < laid.width; c++)
                    if (laid.rows[r][c] == 'O') quilt[best_place[3] + r][best_place[2] + c] = 'O';
            printf("PLAY %d %d %d %d %d\n", patches[best].id, best_place[0], best_place[1], best_place[2], best_place[3]);
        }
        fflush(stdout);
    }
    return 0;
}
