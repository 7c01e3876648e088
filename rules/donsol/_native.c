/* Donsol's native search: the rules of rules/donsol/engine.py and the knowledge of
 * rules/donsol/solver.py (key, dominance, bound, move order), run by the branch and bound of
 * rules/search.py, in C for speed. The Python engine stays the truth: the wrapper
 * (rules/donsol/native.py) replays every line this returns and checks its score.
 *
 * Cards are indices into the engine's DECK; the caller passes each card's value and role
 * (0 potion, 1 shield, 2 monster), so no card fact is written twice. An escape reshuffles
 * with the seed's stream: the caller passes the stream's words from the state's position
 * (rules.deal.word), and the shuffle here draws them exactly as rules.deal.Stream does.
 *
 * Reentrant: every call allocates and frees its own table; nothing global is written. The
 * search runs without the GIL. No clock: a node budget. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 54          /* cards in the deck */
#define ROOM 4
#define MAX_HP 21
#define DECK_SIZE 54
#define FRESH 99         /* a fresh shield's "last monster": above every monster */
#define ESCAPE 255       /* the move "escape" in a line; a take is the card's index */
#define MAXLINE 512      /* moves in a line: at most 54 takes and 55 escapes */
#define POTION 0
#define SHIELD 1
#define MONSTER 2
#define NOTHING INT32_MIN  /* below every score */

enum { NORMAL = 0, EASY = 1, HARD = 2 };
enum { PLAYING = 0, WON = 1, DEAD = 2 };

typedef struct {
    uint8_t dungeon[MAXC];
    uint8_t room[ROOM];
    uint8_t nd, nr;
    int8_t hp;
    int16_t shield;      /* card index, -1 none */
    uint8_t last;        /* value of the last monster on the shield; FRESH when fresh */
    uint8_t sick, escaped_last, first_room, xp, outcome;
    int32_t stream;      /* words of the stream used so far */
} State;

typedef struct {
    uint8_t value[MAXC];
    uint8_t kind[MAXC];
    int variant;
    const uint64_t *words;  /* words[k] is the stream's word stream0 + k */
    int32_t stream0;
    int32_t nwords;
} Rules;

/* ----- the rules ----------------------------------------------------------------------- */

/* Whether the room holds a monster. */
static int room_has_monster(const Rules *R, const State *s) {
    for (int i = 0; i < s->nr; i++)
        if (R->kind[s->room[i]] == MONSTER) return 1;
    return 0;
}

/* The engine's escape_refusal, as a yes or no. */
static int may_escape(const Rules *R, const State *s) {
    if (s->outcome != PLAYING || s->nd == 0) return 0;
    if (s->first_room) return 1;
    int monsters = room_has_monster(R, s);
    if (R->variant == NORMAL && s->escaped_last) return 0;
    if (R->variant == EASY && s->escaped_last && monsters) return 0;
    if (R->variant == HARD && monsters) return 0;
    return 1;
}

/* Take room card number i (DonsolState._take). */
static void take(const Rules *R, const State *s, int i, State *o) {
    *o = *s;
    int card = s->room[i];
    for (int k = i; k + 1 < s->nr; k++) o->room[k] = s->room[k + 1];
    o->nr = s->nr - 1;
    int worth = R->value[card], hp = s->hp;
    switch (R->kind[card]) {
    case POTION:
        if (!s->sick) hp = hp + worth > MAX_HP ? MAX_HP : hp + worth;
        o->sick = 1;
        break;
    case SHIELD:
        o->shield = card;
        o->last = FRESH;
        o->sick = 0;
        break;
    default:
        o->sick = 0;
        if (s->shield < 0) {
            hp -= worth;
        } else if (worth < s->last) {
            int d = worth - R->value[s->shield];
            hp -= d > 0 ? d : 0;
            o->last = (uint8_t)worth;
        } else {
            hp -= worth;
            o->shield = -1;
            o->last = FRESH;
        }
    }
    o->xp = s->xp + 1;
    if (hp <= 0) {
        o->hp = 0;
        o->outcome = DEAD;
    } else {
        o->hp = (int8_t)hp;
        if (o->nr == 0) {
            o->escaped_last = 0;
            if (o->nd == 0) {
                o->outcome = WON;
            } else {
                int n = o->nd < ROOM ? o->nd : ROOM;
                memcpy(o->room, s->dungeon, (size_t)n);
                memmove(o->dungeon, s->dungeon + n, (size_t)(o->nd - n));
                o->nr = (uint8_t)n;
                o->nd = (uint8_t)(o->nd - n);
                o->first_room = 0;
            }
        }
    }
}

/* The next word of the stream, or -1 (in *ok) when the caller passed too few. */
static uint64_t next_word(const Rules *R, int32_t *pos, int *ok) {
    int32_t k = *pos - R->stream0;
    if (k < 0 || k >= R->nwords) {
        *ok = 0;
        return 0;
    }
    *pos += 1;
    return R->words[k];
}

/* Escape (DonsolState._escape): the dungeon then the room, shuffled Fisher-Yates with
 * rules.deal.Stream.below's rejection; 0 when the stream words ran out. */
static int escape(const Rules *R, const State *s, State *o) {
    uint8_t pile[MAXC];
    int n = s->nd + s->nr;
    memcpy(pile, s->dungeon, s->nd);
    memcpy(pile + s->nd, s->room, s->nr);
    int32_t pos = s->stream;
    int ok = 1;
    for (int i = n - 1; i > 0; i--) {
        uint64_t m = (uint64_t)(i + 1), r = (0 - m) % m, x;
        do {
            x = next_word(R, &pos, &ok);
            if (!ok) return 0;
        } while (r != 0 && x >= 0 - r);
        int j = (int)(x % m);
        uint8_t t = pile[i];
        pile[i] = pile[j];
        pile[j] = t;
    }
    *o = *s;
    int nr = n < ROOM ? n : ROOM;
    memcpy(o->room, pile, (size_t)nr);
    memcpy(o->dungeon, pile + nr, (size_t)(n - nr));
    o->nr = (uint8_t)nr;
    o->nd = (uint8_t)(n - nr);
    o->stream = pos;
    o->escaped_last = 1;
    o->first_room = 0;
    return 1;
}

/* The score [xp, hp] as one number that orders the same way. */
static int32_t score_of(const State *s) { return (int32_t)s->xp * 32 + s->hp; }

/* ----- the solver's knowledge (rules/donsol/solver.py) ---------------------------------- */

/* An upper bound on the final score (DonsolStrategy.bound). */
static int32_t bound(const Rules *R, const State *s) {
    if (s->outcome != PLAYING) return score_of(s);
    uint8_t cards[MAXC + ROOM];
    int n = 0;
    for (int i = 0; i < s->nr; i++) cards[n++] = s->room[i];
    for (int i = 0; i < s->nd; i++) cards[n++] = s->dungeon[i];
    int potions[MAXC], np = 0, monsters[MAXC], nm = 0, strongest = 0;
    for (int i = 0; i < n; i++) {
        int c = cards[i], v = R->value[c];
        if (R->kind[c] == MONSTER) monsters[nm++] = v;
        else if (R->kind[c] == POTION) potions[np++] = v;
        else if (v > strongest) strongest = v;
    }
    int heals = n - np + (s->sick ? 0 : 1), healing = 0;
    if (heals < np) {
        /* the largest `heals` potions: sort descending (small arrays) */
        for (int i = 1; i < np; i++) {
            int v = potions[i], k = i;
            while (k > 0 && potions[k - 1] < v) { potions[k] = potions[k - 1]; k--; }
            potions[k] = v;
        }
        np = heals;
    }
    for (int i = 0; i < np; i++) healing += potions[i];
    int held = s->shield >= 0 ? R->value[s->shield] : 0, below = s->last;
    int damage[MAXC], ndmg = 0, total = 0;
    for (int i = 0; i < nm; i++) {
        int m = monsters[i], block = strongest, h = m < below ? held : 0;
        if (h > block) block = h;
        int hit = m - block;
        if (hit > 0) { damage[ndmg++] = hit; total += hit; }
    }
    int reserve = s->hp + healing;
    if (total < reserve) {
        int hp = reserve - total;
        return DECK_SIZE * 32 + (hp > MAX_HP ? MAX_HP : hp);
    }
    for (int i = 1; i < ndmg; i++) {
        int v = damage[i], k = i;
        while (k > 0 && damage[k - 1] > v) { damage[k] = damage[k - 1]; k--; }
        damage[k] = v;
    }
    int others = n - nm, survived = nm - ndmg, taken = 0;
    for (int i = 0; i < ndmg; i++) {
        if (taken + damage[i] >= reserve) break;
        taken += damage[i];
        survived++;
    }
    return (int32_t)(s->xp + others + survived + 1) * 32;
}

/* Twice _shield_left: roughly how much the shield can still block. */
static int shield_left2(const Rules *R, const State *s) {
    if (s->shield < 0) return 0;
    int worth = R->value[s->shield];
    if (s->last != FRESH && s->last - 1 < worth) worth = s->last - 1;
    return worth;
}

typedef struct {
    uint8_t move;
    int rank;   /* twice the Python rank */
    int index;
    State child;
} Child;

/* The legal moves in the engine's order (the room's cards, then escape), each with its
 * state; with `solver`, the solver's children (no escape right after an escape), ranked
 * as DonsolStrategy.children ranks them. Returns how many, or -1 when the stream ran out. */
static int children(const Rules *R, const State *s, Child *out, int solver) {
    if (s->outcome != PLAYING) return 0;
    int n = 0;
    for (int i = 0; i < s->nr; i++) {
        Child *c = &out[n];
        c->move = s->room[i];
        c->index = n;
        take(R, s, i, &c->child);
        if (c->child.outcome == DEAD) {
            c->rank = -200;
        } else {
            c->rank = 2 * c->child.hp + shield_left2(R, &c->child);
            int card = s->room[i];
            if (R->kind[card] == POTION) c->rank -= R->value[card] - (c->child.hp - s->hp);
        }
        n++;
    }
    int just_escaped = s->escaped_last && s->nr == ROOM;
    if (may_escape(R, s) && !(solver && just_escaped)) {
        Child *c = &out[n];
        c->move = ESCAPE;
        c->index = n;
        if (!escape(R, s, &c->child)) return -1;
        c->rank = 2 * s->hp + shield_left2(R, s) - 16;
        n++;
    }
    if (solver) {  /* by rank, best first; ties in the engine's order */
        for (int i = 1; i < n; i++) {
            Child t = out[i];
            int k = i;
            while (k > 0 && (out[k - 1].rank < t.rank ||
                             (out[k - 1].rank == t.rank && out[k - 1].index > t.index))) {
                out[k] = out[k - 1];
                k--;
            }
            out[k] = t;
        }
    }
    return n;
}

/* ----- the table of proven upper bounds ------------------------------------------------ */

#define WAYS 4

typedef struct {
    uint64_t h1;
    uint32_t h2;
    uint8_t hp, well, last, used;  /* the strength: HP, not sick, the shield's last */
    int32_t value;
    uint32_t stamp;
} Entry;

typedef struct {
    Entry *slots;
    uint64_t mask;  /* buckets - 1 */
    uint64_t max_buckets;
    uint64_t used;  /* entries in use */
    uint32_t stamp;
    int failed;     /* a growth found no memory: the table stays as it is */
} Table;

/* The key's two hashes: dungeon and room in order, the shield's value, the flags, the
 * stream (DonsolStrategy.key). */
static void key_hash(const Rules *R, const State *s, uint64_t *h1, uint32_t *h2) {
    uint64_t a = 0x9E3779B97F4A7C15ull, b = 0xC2B2AE3D27D4EB4Full;
    for (int i = 0; i < s->nd; i++) {
        a = (a ^ s->dungeon[i]) * 0x100000001B3ull;
        b = (b + s->dungeon[i] + 1) * 0xFF51AFD7ED558CCDull;
        b ^= b >> 29;
    }
    a = (a ^ 0xFF) * 0x100000001B3ull;
    b = (b + 0x100) * 0xFF51AFD7ED558CCDull;
    for (int i = 0; i < s->nr; i++) {
        a = (a ^ s->room[i]) * 0x100000001B3ull;
        b = (b + s->room[i] + 1) * 0xFF51AFD7ED558CCDull;
        b ^= b >> 29;
    }
    uint64_t rest = (uint64_t)(s->shield >= 0 ? R->value[s->shield] : 0) |
                    (uint64_t)s->escaped_last << 8 | (uint64_t)s->first_room << 9 |
                    (uint64_t)(uint32_t)s->stream << 16;
    a = (a ^ rest) * 0x100000001B3ull;
    b = (b ^ rest) * 0xC4CEB9FE1A85EC53ull;
    a ^= a >> 33;
    a *= 0xFF51AFD7ED558CCDull;
    a ^= a >> 33;
    b ^= b >> 31;
    *h1 = a;
    *h2 = (uint32_t)(b >> 32);
}

/* The least bound of an entry of this key at least as strong as s; NOTHING when none. */
static int32_t recall(const Table *T, uint64_t h1, uint32_t h2, const State *s) {
    const Entry *e = &T->slots[(h1 & T->mask) * WAYS];
    int32_t found = NOTHING;
    int well = !s->sick;
    for (int w = 0; w < WAYS; w++, e++) {
        if (!e->used || e->h1 != h1 || e->h2 != h2) continue;
        if (e->hp >= s->hp && e->well >= well && e->last >= s->last &&
            (found == NOTHING || e->value < found))
            found = e->value;
    }
    return found;
}

/* Double the table when half full, up to its largest size: the entries move in slot order,
 * so the same search gives the same table on every machine. */
static void grow(Table *T) {
    uint64_t buckets = T->mask + 1;
    if (buckets >= T->max_buckets || T->failed || T->used * 2 < buckets * WAYS) return;
    Entry *bigger = calloc(buckets * 2 * WAYS, sizeof(Entry));
    if (!bigger) { T->failed = 1; return; }
    uint64_t mask = buckets * 2 - 1;
    for (uint64_t i = 0; i < buckets * WAYS; i++) {
        Entry *x = &T->slots[i];
        if (!x->used) continue;
        Entry *e = &bigger[(x->h1 & mask) * WAYS];
        for (int w = 0; w < WAYS; w++)
            if (!e[w].used) { e[w] = *x; break; }
    }
    free(T->slots);
    T->slots = bigger;
    T->mask = mask;
}

/* Remember a proven bound: over the same strength, over an entry it makes useless (weaker
 * and no lower), in a free way, or over the oldest. */
static void store(Table *T, uint64_t h1, uint32_t h2, const State *s, int32_t value) {
    Entry *e = &T->slots[(h1 & T->mask) * WAYS], *pick = NULL;
    int well = !s->sick;
    for (int w = 0; w < WAYS; w++) {
        Entry *x = &e[w];
        if (x->used && x->h1 == h1 && x->h2 == h2 && x->hp <= s->hp && x->well <= well &&
            x->last <= s->last && x->value >= value) {
            pick = x;
            break;
        }
    }
    if (!pick)
        for (int w = 0; w < WAYS; w++)
            if (!e[w].used) { pick = &e[w]; T->used++; break; }
    if (!pick) {
        pick = &e[0];
        for (int w = 1; w < WAYS; w++)
            if (e[w].stamp < pick->stamp) pick = &e[w];
    }
    pick->h1 = h1;
    pick->h2 = h2;
    pick->hp = (uint8_t)s->hp;
    pick->well = (uint8_t)well;
    pick->last = s->last;
    pick->used = 1;
    pick->value = value;
    pick->stamp = ++T->stamp;
    grow(T);
}

/* ----- the branch and bound (rules/search.py) ------------------------------------------ */

typedef struct {
    const Rules *R;
    Table T;
    long long budget;  /* -1: none */
    long long nodes;
    int32_t best;
    uint8_t line[MAXLINE], path[MAXLINE];
    int nline, npath;
    int out;          /* 1: out of budget; 2: the stream words ran out; 3: line too long */
} Search;

/* Search s; an upper bound on its value (Search._visit). */
static int32_t visit(Search *S, const State *s) {
    if (s->outcome != PLAYING) {
        int32_t sc = score_of(s);
        if (sc > S->best) {
            S->best = sc;
            memcpy(S->line, S->path, (size_t)S->npath);
            S->nline = S->npath;
        }
        return sc;
    }
    uint64_t h1;
    uint32_t h2;
    key_hash(S->R, s, &h1, &h2);
    int32_t known = recall(&S->T, h1, h2, s);
    if (known != NOTHING && known <= S->best) return known;
    int32_t b = bound(S->R, s);
    if (known != NOTHING && known < b) b = known;
    if (b <= S->best) return b;
    S->nodes++;
    if (S->budget >= 0 && S->nodes > S->budget) { S->out = 1; return b; }
    if (S->npath >= MAXLINE) { S->out = 3; return b; }
    Child kids[ROOM + 1];
    int n = children(S->R, s, kids, 1);
    if (n < 0) { S->out = 2; return b; }
    int32_t top = NOTHING;
    int finished = 1;
    for (int i = 0; i < n; i++) {
        S->path[S->npath++] = kids[i].move;
        int32_t v = visit(S, &kids[i].child);
        S->npath--;
        if (S->out) return b;
        if (v > top) top = v;
        if (S->best >= b) { finished = 0; break; }
    }
    int32_t value = finished ? (top < b ? top : b) : b;
    store(&S->T, h1, h2, s, value);
    return value;
}

/* The first incumbent: the first move of each state to the end (Search._dive). */
static int dive(Search *S, const State *root) {
    State s = *root;
    S->nline = 0;
    Child kids[ROOM + 1];
    for (;;) {
        int n = children(S->R, &s, kids, 1);
        if (n < 0) return 0;
        if (n == 0) break;
        if (S->nline >= MAXLINE) return 0;
        S->line[S->nline++] = kids[0].move;
        s = kids[0].child;
    }
    S->best = score_of(&s);
    return 1;
}

/* ----- Python's side ------------------------------------------------------------------- */

/* Read (variant, dungeon, room, hp, shield, last, sick, escaped_last, first_room, xp,
 * outcome, stream) into s; the tables (values, kinds) into R. 0 with an exception set. */
static int parse(PyObject *tables, PyObject *state, Rules *R, State *s) {
    const char *values, *kinds, *dungeon, *room;
    Py_ssize_t nv, nk, nd, nr;
    int variant, hp, shield, last, sick, esc, first, xp, outcome;
    long long stream;
    if (!PyArg_ParseTuple(tables, "y#y#", &values, &nv, &kinds, &nk)) return 0;
    if (nv != MAXC || nk != MAXC) {
        PyErr_SetString(PyExc_ValueError, "the card tables have 54 entries");
        return 0;
    }
    if (!PyArg_ParseTuple(state, "iy#y#iiiiiiiiL", &variant, &dungeon, &nd, &room, &nr, &hp,
                          &shield, &last, &sick, &esc, &first, &xp, &outcome, &stream))
        return 0;
    memset(s, 0, sizeof *s);
    memcpy(R->value, values, MAXC);
    memcpy(R->kind, kinds, MAXC);
    for (int i = 0; i < MAXC; i++)
        if (R->kind[i] > MONSTER || R->value[i] > 30) {
            PyErr_SetString(PyExc_ValueError, "a card's value or role is out of range");
            return 0;
        }
    if (variant < 0 || variant > HARD || nd > MAXC || nr > ROOM || nd + nr > MAXC ||
        hp < 0 || hp > MAX_HP || shield < -1 || shield >= MAXC || last < 0 || last > FRESH ||
        xp < 0 || xp > DECK_SIZE || outcome < 0 || outcome > DEAD || stream < 0 ||
        stream > INT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "a Donsol state field is out of range");
        return 0;
    }
    for (Py_ssize_t i = 0; i < nd; i++)
        if ((uint8_t)dungeon[i] >= MAXC) goto bad_card;
    for (Py_ssize_t i = 0; i < nr; i++)
        if ((uint8_t)room[i] >= MAXC) goto bad_card;
    R->variant = variant;
    memcpy(s->dungeon, dungeon, (size_t)nd);
    memcpy(s->room, room, (size_t)nr);
    s->nd = (uint8_t)nd;
    s->nr = (uint8_t)nr;
    s->hp = (int8_t)hp;
    s->shield = (int16_t)shield;
    s->last = (uint8_t)last;
    s->sick = !!sick;
    s->escaped_last = !!esc;
    s->first_room = !!first;
    s->xp = (uint8_t)xp;
    s->outcome = (uint8_t)outcome;
    s->stream = (int32_t)stream;
    return 1;
bad_card:
    PyErr_SetString(PyExc_ValueError, "a card index is out of range");
    return 0;
}

/* The stream's words (native-endian 64-bit, from the state's position) into R. */
static int parse_words(Py_buffer *words, const State *s, Rules *R) {
    if (words->len % 8) {
        PyErr_SetString(PyExc_ValueError, "the stream words are 8 bytes each");
        return 0;
    }
    R->words = (const uint64_t *)words->buf;
    R->nwords = (int32_t)(words->len / 8 > INT32_MAX / 2 ? INT32_MAX / 2 : words->len / 8);
    R->stream0 = s->stream;
    return 1;
}

static PyObject *build_state(const State *s) {
    return Py_BuildValue("y#y#iiiiiiiiL", (const char *)s->dungeon, (Py_ssize_t)s->nd,
                         (const char *)s->room, (Py_ssize_t)s->nr, (int)s->hp, (int)s->shield,
                         (int)s->last, (int)s->sick, (int)s->escaped_last, (int)s->first_room,
                         (int)s->xp, (int)s->outcome, (long long)s->stream);
}

static PyObject *stream_short(void) {
    PyErr_SetString(PyExc_ValueError, "the stream words passed in ran out");
    return NULL;
}

/* moves(tables, state, words) -> ((move, state), ...): the legal moves in the engine's
 * order and the state after each (debug entry point: tests compare it with the engine). */
static PyObject *py_moves(PyObject *self, PyObject *args) {
    PyObject *tables, *state;
    Py_buffer words;
    Rules R;
    State s;
    if (!PyArg_ParseTuple(args, "O!O!y*", &PyTuple_Type, &tables, &PyTuple_Type, &state, &words))
        return NULL;
    if (!parse(tables, state, &R, &s) || !parse_words(&words, &s, &R)) {
        PyBuffer_Release(&words);
        return NULL;
    }
    Child kids[ROOM + 1];
    int n = children(&R, &s, kids, 0);
    PyBuffer_Release(&words);
    if (n < 0) return stream_short();
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *st = build_state(&kids[i].child);
        PyObject *pair = st ? Py_BuildValue("(iN)", kids[i].move == ESCAPE ? -1 : kids[i].move,
                                            st) : NULL;
        if (!pair) { Py_DECREF(out); return NULL; }
        PyTuple_SET_ITEM(out, i, pair);
    }
    return out;
}

/* solve(tables, state, words, budget) -> (score, exact, nodes, line): the best final score
 * found ((xp, hp)), whether the search finished, the nodes it counted, and its line (card
 * indices, -1 for escape). budget < 0: none. */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *tables, *state;
    Py_buffer words;
    long long budget;
    Rules R;
    State s;
    if (!PyArg_ParseTuple(args, "O!O!y*L", &PyTuple_Type, &tables, &PyTuple_Type, &state,
                          &words, &budget))
        return NULL;
    if (!parse(tables, state, &R, &s) || !parse_words(&words, &s, &R)) {
        PyBuffer_Release(&words);
        return NULL;
    }
    Search *S = calloc(1, sizeof *S);
    /* The table starts small and doubles as it fills, up to about two ways per node of the
     * budget and at most 2^21 buckets (200 MB). */
    uint64_t buckets = 1u << 10, most = buckets;
    while (most < (1u << 21) && (budget < 0 || (long long)(most * WAYS) < 2 * budget))
        most <<= 1;
    Entry *slots = S ? calloc(buckets * WAYS, sizeof(Entry)) : NULL;
    if (!slots) {
        free(S);
        PyBuffer_Release(&words);
        return PyErr_NoMemory();
    }
    S->R = &R;
    S->T.slots = slots;
    S->T.mask = buckets - 1;
    S->T.max_buckets = most;
    S->budget = budget;
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = dive(S, &s);
    if (ok) {
        visit(S, &s);
        if (S->out == 2 || S->out == 3) ok = 0;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&words);
    PyObject *result = NULL;
    if (!ok) {
        stream_short();
    } else {
        PyObject *line = PyTuple_New(S->nline);
        if (line) {
            for (int i = 0; i < S->nline; i++)
                PyTuple_SET_ITEM(line, i,
                                 PyLong_FromLong(S->line[i] == ESCAPE ? -1 : S->line[i]));
            result = Py_BuildValue("((ii)OLN)", (int)(S->best / 32), (int)(S->best % 32),
                                   S->out ? Py_False : Py_True, S->nodes, line);
        }
    }
    free(S->T.slots);
    free(S);
    return result;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, "solve(tables, state, words, budget) -> (score, exact, "
     "nodes, line): Donsol's branch and bound from a state."},
    {"moves", py_moves, METH_VARARGS, "moves(tables, state, words) -> ((move, state), ...): "
     "the legal moves and the state after each, in the engine's order."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "Donsol's native search (rules/donsol/_native.c).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
