/* Scoundrel's native search: the rules of rules/scoundrel/engine.py and the knowledge of
 * rules/scoundrel/solver.py (key with the two monsters of a value alike, dominance, bound,
 * move order), run by the branch and bound of rules/search.py, in C for speed. The Python
 * engine stays the truth: rules/native.py replays every line this returns through it and
 * checks the score.
 *
 * Cards are their places in rules.cards.CANONICAL (suits S H D C of A..K, then the jokers);
 * the 44 of Scoundrel's deck are the only ones a state may hold.
 *
 * Reentrant: every call allocates and frees its own table; nothing global is written. The
 * search runs without the GIL. No clock: a node budget. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 54          /* card numbers: CANONICAL's places */
#define ROOM 4
#define MAX_HP 20
#define FRESH 99         /* a fresh weapon's "last slain": above every monster */
#define TOP 14           /* the strongest monster */
#define AVOID 255        /* the move "avoid" in a line */
#define MAXLINE 256      /* moves in a line: 44 cards and at most one avoid per room */
#define POTION 0
#define WEAPON 1
#define MONSTER 2
#define NOTHING INT32_MIN  /* below every score */

/* A move: the card's index, and how (take, fight or fist), or AVOID. */
enum { TAKE = 0, FIGHT = 1, FIST = 2 };
enum { PLAYING = 0, WON = 1, DEAD = 2 };

typedef struct {
    uint8_t dungeon[MAXC];
    uint8_t room[ROOM];
    uint8_t nd, nr;
    int16_t hp;          /* below 1 only once dead */
    int16_t weapon;      /* card index, -1 none */
    uint8_t last;        /* value of the weapon's last slain monster; FRESH when none */
    uint8_t taken, potions, avoided_last, outcome;
    int16_t last_card;   /* the card taken last, -1 none */
} State;

typedef struct {
    uint8_t value[MAXC];
    uint8_t kind[MAXC];
    uint8_t in_deck[MAXC];
} Rules;

/* Each card's value and role, from its place in CANONICAL (engine.VALUE, engine.ROLE); the
 * jokers and the red J, Q, K and A are not in the deck. */
static void fill_cards(Rules *R) {
    memset(R, 0, sizeof *R);
    for (int i = 0; i < 52; i++) {
        int suit = i / 13, rank = i % 13;  /* S H D C; A 2 .. 10 J Q K */
        int red_face = (suit == 1 || suit == 2) && (rank == 0 || rank >= 10);
        R->in_deck[i] = !red_face;
        R->value[i] = (uint8_t)(rank == 0 ? 14 : rank + 1);
        R->kind[i] = suit == 0 || suit == 3 ? MONSTER : suit == 1 ? POTION : WEAPON;
    }
}

/* ----- the rules ----------------------------------------------------------------------- */

/* Whether avoiding the room is legal (the engine's rule, solver.can_avoid). */
static int may_avoid(const State *s) {
    return s->outcome == PLAYING && s->nr == ROOM && !s->taken && !s->avoided_last;
}

/* The monsters' values in the dungeon and the room. */
static int monsters_left(const Rules *R, const State *s) {
    int left = 0;
    for (int i = 0; i < s->nd; i++)
        if (R->kind[s->dungeon[i]] == MONSTER) left += R->value[s->dungeon[i]];
    for (int i = 0; i < s->nr; i++)
        if (R->kind[s->room[i]] == MONSTER) left += R->value[s->room[i]];
    return left;
}

/* The final score (Scoundrel.score): a win's HP and potion bonus, else HP less the
 * monsters left. */
static int32_t score_of(const Rules *R, const State *s) {
    if (s->outcome == WON) {
        int bonus = s->hp == MAX_HP && s->last_card >= 0 && R->kind[s->last_card] == POTION
                        ? R->value[s->last_card] : 0;
        return s->hp + bonus;
    }
    return s->hp - monsters_left(R, s);
}

/* Room card number i, taken, fought with the weapon or fisted (Scoundrel._apply). */
static void play(const Rules *R, const State *s, int i, int how, State *o) {
    *o = *s;
    int card = s->room[i];
    for (int k = i; k + 1 < s->nr; k++) o->room[k] = s->room[k + 1];
    o->nr = s->nr - 1;
    int worth = R->value[card], hp = s->hp;
    if (how == TAKE && R->kind[card] == WEAPON) {
        o->weapon = (int16_t)card;
        o->last = FRESH;
    } else if (how == TAKE) {
        if (!s->potions) hp = hp + worth > MAX_HP ? MAX_HP : hp + worth;
        o->potions = s->potions + 1;
    } else if (how == FIGHT) {
        int w = R->value[s->weapon];
        hp -= worth > w ? worth - w : 0;
        o->last = (uint8_t)worth;
    } else {
        hp -= worth;
    }
    o->hp = (int16_t)hp;
    o->taken = s->taken + 1;
    o->last_card = (int16_t)card;
    if (hp <= 0) {
        o->outcome = DEAD;
    } else if (o->nr == 0 && o->nd == 0) {
        o->outcome = WON;
    } else if (o->nd && o->nr <= 1) {
        int need = ROOM - o->nr;
        if (need > o->nd) need = o->nd;
        memcpy(o->room + o->nr, s->dungeon, (size_t)need);
        memmove(o->dungeon, s->dungeon + need, (size_t)(s->nd - need));
        o->nr = (uint8_t)(o->nr + need);
        o->nd = (uint8_t)(s->nd - need);
        o->taken = 0;
        o->potions = 0;
        o->avoided_last = 0;
    }
}

/* Avoid the room: its cards go under the dungeon, in order (Scoundrel._avoid). */
static void avoid(const State *s, State *o) {
    uint8_t pile[MAXC];
    int n = s->nd + s->nr;
    memcpy(pile, s->dungeon, s->nd);
    memcpy(pile + s->nd, s->room, s->nr);
    *o = *s;
    memcpy(o->room, pile, ROOM);
    memcpy(o->dungeon, pile + ROOM, (size_t)(n - ROOM));
    o->nr = ROOM;
    o->nd = (uint8_t)(n - ROOM);
    o->taken = 0;
    o->potions = 0;
    o->avoided_last = 1;
}

/* ----- the solver's knowledge (rules/scoundrel/solver.py) ------------------------------ */

/* An upper bound on the final score (ScoundrelStrategy.bound). */
static int32_t bound(const Rules *R, const State *s) {
    if (s->outcome != PLAYING) return score_of(R, s);
    int fresh_later = 0, healing = 0, top_potion = 0;
    for (int i = 0; i < s->nd; i++) {
        int c = s->dungeon[i], v = R->value[c];
        if (R->kind[c] == WEAPON) { if (v > fresh_later) fresh_later = v; }
        else if (R->kind[c] == POTION) { healing += v; if (v > top_potion) top_potion = v; }
    }
    int hand = s->weapon >= 0 ? R->value[s->weapon] : 0, last = s->last;
    int avoidable = may_avoid(s), here = 0;
    for (int i = 0; i < s->nr; i++)
        if (R->kind[s->room[i]] == WEAPON && R->value[s->room[i]] > here)
            here = R->value[s->room[i]];
    int fresh = here > fresh_later ? here : fresh_later;
    int high = hand > fresh ? hand : fresh;
    int damage = 0;
    for (int i = 0; i < s->nd; i++) {
        int c = s->dungeon[i];
        if (R->kind[c] != MONSTER) continue;
        int m = R->value[c], best = m <= last ? high : fresh;
        if (m > best) damage += m - best;
    }
    int room_potions[ROOM], np = 0, settled = !avoidable, carried = 0;
    for (int i = 0; i < s->nr; i++) {
        int c = s->room[i], m = R->value[c];
        if (R->kind[c] == MONSTER) {
            int best = m <= last ? high : fresh;
            int cost = m > best ? m - best : 0;
            if (settled) {
                int now = (here > hand || m > last) ? here : hand;
                if (m - now > cost) {
                    if (s->nd && m - now - cost > carried) carried = m - now - cost;
                    cost = m - now;
                }
            }
            damage += cost;
        } else if (R->kind[c] == POTION) {
            room_potions[np++] = m;
        }
    }
    damage -= carried;
    if (np) {
        for (int i = 1; i < np; i++) {  /* descending */
            int v = room_potions[i], k = i;
            while (k > 0 && room_potions[k - 1] < v) { room_potions[k] = room_potions[k - 1]; k--; }
            room_potions[k] = v;
        }
        if (room_potions[0] > top_potion) top_potion = room_potions[0];
        int allowed = avoidable ? np : (s->potions ? 0 : 1) + (s->nd ? 1 : 0);
        for (int i = 0; i < np && i < allowed; i++) healing += room_potions[i];
    }
    int end_hp = s->hp + healing - damage;
    if (end_hp >= MAX_HP) return MAX_HP + top_potion;
    if (end_hp >= 1) return end_hp;
    return end_hp < 0 ? end_hp : 0;
}

/* Twice _capacity: roughly how much the weapon can still block. */
static int capacity2(const Rules *R, const State *s) {
    if (s->weapon < 0) return 0;
    int worth = R->value[s->weapon];
    if (s->last != FRESH && s->last < worth) worth = s->last;
    return worth;
}

typedef struct {
    uint8_t card, how;  /* card index and TAKE/FIGHT/FIST; card AVOID for avoid */
    int32_t bound;
    int rank;           /* twice the Python rank */
    int index;
    State child;
} Child;

#define MAXKIDS (2 * ROOM + 1)

/* The legal moves in the engine's order (Scoundrel.actions), each with its state; with
 * `solver`, ranked as ScoundrelStrategy.children ranks them (the child's bound, then the
 * HP and weapon left, then the engine's order). Returns how many. */
static int children(const Rules *R, const State *s, Child *out, int solver) {
    if (s->outcome != PLAYING) return 0;
    int n = 0, armed = s->weapon >= 0;
    for (int i = 0; i < s->nr; i++) {
        int c = s->room[i];
        if (R->kind[c] == MONSTER) {
            if (armed && R->value[c] <= s->last) {
                out[n].card = (uint8_t)c;
                out[n].how = FIGHT;
                play(R, s, i, FIGHT, &out[n].child);
                n++;
            }
            out[n].card = (uint8_t)c;
            out[n].how = FIST;
            play(R, s, i, FIST, &out[n].child);
            n++;
        } else {
            out[n].card = (uint8_t)c;
            out[n].how = TAKE;
            play(R, s, i, TAKE, &out[n].child);
            n++;
        }
    }
    if (may_avoid(s)) {
        out[n].card = AVOID;
        out[n].how = TAKE;
        avoid(s, &out[n].child);
        n++;
    }
    if (!solver) return n;
    for (int i = 0; i < n; i++) {
        Child *k = &out[i];
        k->index = i;
        k->bound = bound(R, &k->child);
        k->rank = k->card == AVOID ? 2 * s->hp + capacity2(R, s) - 12
                                   : 2 * k->child.hp + capacity2(R, &k->child);
    }
    for (int i = 1; i < n; i++) {
        Child t = out[i];
        int k = i;
        while (k > 0 && (out[k - 1].bound < t.bound ||
                         (out[k - 1].bound == t.bound &&
                          (out[k - 1].rank < t.rank ||
                           (out[k - 1].rank == t.rank && out[k - 1].index > t.index))))) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = t;
    }
    return n;
}

/* ----- the table of proven upper bounds ------------------------------------------------ */

#define WAYS 4

typedef struct {
    uint64_t h1;
    uint32_t h2;
    uint8_t hp, weapon, last, well;  /* the strength; well: this room's potion unused */
    int32_t value;
    uint32_t stamp;  /* when it was stored; 0: the way is free */
} Entry;

typedef struct {
    Entry *slots;
    uint64_t mask;  /* buckets - 1 */
    uint64_t max_buckets;
    uint64_t used;  /* entries in use */
    uint32_t stamp;
    int failed;     /* a growth found no memory: the table stays as it is */
} Table;

/* A card as the key writes it: a monster by its value alone. */
static uint8_t alike(const Rules *R, int c) {
    return R->kind[c] == MONSTER ? (uint8_t)(64 + R->value[c]) : (uint8_t)c;
}

/* The key's two hashes (ScoundrelStrategy.key): the dungeon in order, the room (sorted
 * when it may not be avoided), whether it may be avoided. */
static void key_hash(const Rules *R, const State *s, uint64_t *h1, uint32_t *h2) {
    uint64_t a = 0x9E3779B97F4A7C15ull, b = 0xC2B2AE3D27D4EB4Full;
    for (int i = 0; i < s->nd; i++) {
        uint8_t x = alike(R, s->dungeon[i]);
        a = (a ^ x) * 0x100000001B3ull;
        b = (b + x + 1) * 0xFF51AFD7ED558CCDull;
        b ^= b >> 29;
    }
    int avoidable = may_avoid(s);
    uint8_t room[ROOM];
    for (int i = 0; i < s->nr; i++) room[i] = alike(R, s->room[i]);
    if (!avoidable)
        for (int i = 1; i < s->nr; i++) {
            uint8_t v = room[i];
            int k = i;
            while (k > 0 && room[k - 1] > v) { room[k] = room[k - 1]; k--; }
            room[k] = v;
        }
    a = (a ^ 0xFF) * 0x100000001B3ull;
    b = (b + 0x100) * 0xFF51AFD7ED558CCDull;
    for (int i = 0; i < s->nr; i++) {
        a = (a ^ room[i]) * 0x100000001B3ull;
        b = (b + room[i] + 1) * 0xFF51AFD7ED558CCDull;
        b ^= b >> 29;
    }
    uint64_t rest = (uint64_t)avoidable | (uint64_t)s->nr << 8;
    a = (a ^ rest) * 0x100000001B3ull;
    b = (b ^ rest) * 0xC4CEB9FE1A85EC53ull;
    a ^= a >> 33;
    a *= 0xFF51AFD7ED558CCDull;
    a ^= a >> 33;
    b ^= b >> 31;
    *h1 = a;
    *h2 = (uint32_t)(b >> 32);
}

/* The state's strength (ScoundrelStrategy.strength), into e's fields. */
static void strength(const Rules *R, const State *s, uint8_t *hp, uint8_t *weapon, uint8_t *last,
                     uint8_t *well) {
    *hp = (uint8_t)(s->hp > 0 ? s->hp : 0);
    if (s->weapon < 0) {
        *weapon = 0;
        *last = 0;
    } else {
        *weapon = R->value[s->weapon];
        *last = s->last;
    }
    *well = !s->potions;
}

/* The least bound of an entry of this key at least as strong as s; NOTHING when none. */
static int32_t recall(const Rules *R, const Table *T, uint64_t h1, uint32_t h2, const State *s) {
    const Entry *e = &T->slots[(h1 & T->mask) * WAYS];
    int32_t found = NOTHING;
    uint8_t hp, weapon, last, well;
    strength(R, s, &hp, &weapon, &last, &well);
    for (int w = 0; w < WAYS; w++, e++) {
        if (!e->stamp || e->h1 != h1 || e->h2 != h2) continue;
        if (e->hp >= hp && e->weapon >= weapon && e->last >= last && e->well >= well &&
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
        if (!x->stamp) continue;
        Entry *e = &bigger[(x->h1 & mask) * WAYS];
        for (int w = 0; w < WAYS; w++)
            if (!e[w].stamp) { e[w] = *x; break; }
    }
    free(T->slots);
    T->slots = bigger;
    T->mask = mask;
}

/* Remember a proven bound: over an entry it makes useless (weaker and no lower), in a free
 * way, or over the oldest. */
static void store(const Rules *R, Table *T, uint64_t h1, uint32_t h2, const State *s,
                  int32_t value) {
    Entry *e = &T->slots[(h1 & T->mask) * WAYS], *pick = NULL;
    uint8_t hp, weapon, last, well;
    strength(R, s, &hp, &weapon, &last, &well);
    for (int w = 0; w < WAYS; w++) {
        Entry *x = &e[w];
        if (x->stamp && x->h1 == h1 && x->h2 == h2 && x->hp <= hp && x->weapon <= weapon &&
            x->last <= last && x->well <= well && x->value >= value) {
            pick = x;
            break;
        }
    }
    if (!pick)
        for (int w = 0; w < WAYS; w++)
            if (!e[w].stamp) { pick = &e[w]; T->used++; break; }
    if (!pick) {
        pick = &e[0];
        for (int w = 1; w < WAYS; w++)
            if (e[w].stamp < pick->stamp) pick = &e[w];
    }
    pick->h1 = h1;
    pick->h2 = h2;
    pick->hp = hp;
    pick->weapon = weapon;
    pick->last = last;
    pick->well = well;
    pick->value = value;
    pick->stamp = ++T->stamp ? T->stamp : (T->stamp = 1);
    grow(T);
}

/* ----- the branch and bound (rules/search.py) ------------------------------------------ */

typedef struct {
    const Rules *R;
    Table T;
    long long budget;  /* -1: none */
    long long nodes;
    int32_t best;
    uint8_t line[MAXLINE][2], path[MAXLINE][2];
    int nline, npath;
    int out;          /* 1: out of budget; 3: line too long */
} Search;

/* Search s; an upper bound on its value (Search._visit). */
static int32_t visit(Search *S, const State *s) {
    if (s->outcome != PLAYING) {
        int32_t sc = score_of(S->R, s);
        if (sc > S->best) {
            S->best = sc;
            memcpy(S->line, S->path, sizeof(S->path[0]) * (size_t)S->npath);
            S->nline = S->npath;
        }
        return sc;
    }
    uint64_t h1;
    uint32_t h2;
    key_hash(S->R, s, &h1, &h2);
    int32_t known = recall(S->R, &S->T, h1, h2, s);
    if (known != NOTHING && known <= S->best) return known;
    int32_t b = bound(S->R, s);
    if (known != NOTHING && known < b) b = known;
    if (b <= S->best) return b;
    S->nodes++;
    if (S->budget >= 0 && S->nodes > S->budget) { S->out = 1; return b; }
    if (S->npath >= MAXLINE) { S->out = 3; return b; }
    Child kids[MAXKIDS];
    int n = children(S->R, s, kids, 1);
    int32_t top = NOTHING;
    int finished = 1;
    for (int i = 0; i < n; i++) {
        S->path[S->npath][0] = kids[i].card;
        S->path[S->npath][1] = kids[i].how;
        S->npath++;
        int32_t v = visit(S, &kids[i].child);
        S->npath--;
        if (S->out) return b;
        if (v > top) top = v;
        if (S->best >= b) { finished = 0; break; }
    }
    int32_t value = finished ? (top < b ? top : b) : b;
    store(S->R, &S->T, h1, h2, s, value);
    return value;
}

/* The first incumbent: the first move of each state to the end (Search._dive). */
static int dive(Search *S, const State *root) {
    State s = *root;
    S->nline = 0;
    Child kids[MAXKIDS];
    for (;;) {
        int n = children(S->R, &s, kids, 1);
        if (n == 0) break;
        if (S->nline >= MAXLINE) return 0;
        S->line[S->nline][0] = kids[0].card;
        S->line[S->nline][1] = kids[0].how;
        S->nline++;
        s = kids[0].child;
    }
    S->best = score_of(S->R, &s);
    return 1;
}

/* ----- Python's side (rules/native.py) ----------------------------------------------- */

/* Read an encoded state (ScoundrelNative.encode: dungeon, room, hp, weapon, last, taken,
 * potions, avoided_last, last_card, outcome) into R and s. 0 with an exception set. */
static int parse(PyObject *state, Rules *R, State *s) {
    const char *dungeon, *room;
    Py_ssize_t nd, nr;
    int hp, weapon, last, taken, potions, avoided, last_card, outcome;
    if (!PyTuple_Check(state)) {
        PyErr_SetString(PyExc_TypeError, "a Scoundrel state is a tuple");
        return 0;
    }
    if (!PyArg_ParseTuple(state, "y#y#iiiiiiii", &dungeon, &nd, &room, &nr, &hp, &weapon, &last,
                          &taken, &potions, &avoided, &last_card, &outcome))
        return 0;
    memset(s, 0, sizeof *s);
    fill_cards(R);
    if (nd > MAXC || nr > ROOM || nd + nr > MAXC || hp < -300 || hp > MAX_HP || weapon < -1 ||
        weapon >= MAXC || (weapon >= 0 && (!R->in_deck[weapon] || R->kind[weapon] != WEAPON)) ||
        last < 0 || last > FRESH || taken < 0 || taken > MAXC || potions < 0 ||
        potions > MAXC || last_card < -1 || last_card >= MAXC ||
        (last_card >= 0 && !R->in_deck[last_card]) || outcome < 0 || outcome > DEAD ||
        (outcome == PLAYING && hp < 1)) {
        PyErr_SetString(PyExc_ValueError, "a Scoundrel state field is out of range");
        return 0;
    }
    for (Py_ssize_t i = 0; i < nd; i++)
        if ((uint8_t)dungeon[i] >= MAXC || !R->in_deck[(uint8_t)dungeon[i]]) goto bad_card;
    for (Py_ssize_t i = 0; i < nr; i++)
        if ((uint8_t)room[i] >= MAXC || !R->in_deck[(uint8_t)room[i]]) goto bad_card;
    memcpy(s->dungeon, dungeon, (size_t)nd);
    memcpy(s->room, room, (size_t)nr);
    s->nd = (uint8_t)nd;
    s->nr = (uint8_t)nr;
    s->hp = (int16_t)hp;
    s->weapon = (int16_t)weapon;
    s->last = (uint8_t)last;
    s->taken = (uint8_t)taken;
    s->potions = (uint8_t)potions;
    s->avoided_last = !!avoided;
    s->last_card = (int16_t)last_card;
    s->outcome = (uint8_t)outcome;
    return 1;
bad_card:
    PyErr_SetString(PyExc_ValueError, "a card index is out of range (or not in the deck)");
    return 0;
}

/* A state in the encoding parse reads. */
static PyObject *build_state(const State *s) {
    return Py_BuildValue("y#y#iiiiiiii", (const char *)s->dungeon, (Py_ssize_t)s->nd,
                         (const char *)s->room, (Py_ssize_t)s->nr, (int)s->hp, (int)s->weapon,
                         (int)s->last, (int)s->taken, (int)s->potions, (int)s->avoided_last,
                         (int)s->last_card, (int)s->outcome);
}

/* A move for Python: card * 4 + how (0 take, 1 fight, 2 fist), -1 for avoid. */
static long move_number(uint8_t card, uint8_t how) {
    return card == AVOID ? -1 : (long)card * 4 + how;
}

/* moves(state) -> [move, ...]: the legal moves in the engine's order (debug entry point:
 * tests compare it with the engine). */
static PyObject *py_moves(PyObject *self, PyObject *arg) {
    Rules R;
    State s;
    if (!parse(arg, &R, &s)) return NULL;
    Child kids[MAXKIDS];
    int n = children(&R, &s, kids, 0);
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *m = PyLong_FromLong(move_number(kids[i].card, kids[i].how));
        if (!m) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, m);
    }
    return out;
}

/* play(state, move) -> state: the state after one legal move (debug entry point). */
static PyObject *py_play(PyObject *self, PyObject *args) {
    PyObject *state;
    long move;
    Rules R;
    State s;
    if (!PyArg_ParseTuple(args, "Ol", &state, &move)) return NULL;
    if (!parse(state, &R, &s)) return NULL;
    Child kids[MAXKIDS];
    int n = children(&R, &s, kids, 0);
    for (int i = 0; i < n; i++)
        if (move_number(kids[i].card, kids[i].how) == move) return build_state(&kids[i].child);
    PyErr_Format(PyExc_ValueError, "%ld is not a legal move here", move);
    return NULL;
}

/* search(state, budget, seed) -> (score, exact, nodes, line): the best final score found
 * ((points,)), whether the search finished, the nodes it counted and its line (moves as
 * moves() writes them). budget < 0: none. The seed is unused (no probing dives here). */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *state;
    long long budget, unused;
    Rules R;
    State s;
    if (!PyArg_ParseTuple(args, "OLL", &state, &budget, &unused)) return NULL;
    if (!parse(state, &R, &s)) return NULL;
    Search *S = calloc(1, sizeof *S);
    /* The table starts small and doubles as it fills, up to about two ways per node of the
     * budget and at most 2^21 buckets (200 MB). */
    uint64_t buckets = 1u << 10, most = buckets;
    while (most < (1u << 21) && (budget < 0 || (long long)(most * WAYS) < 2 * budget))
        most <<= 1;
    Entry *slots = S ? calloc(buckets * WAYS, sizeof(Entry)) : NULL;
    if (!slots) {
        free(S);
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
        if (S->out == 3) ok = 0;
    }
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "a line outgrew the native search's path");
    } else {
        PyObject *line = PyList_New(S->nline);
        for (int i = 0; line && i < S->nline; i++) {
            PyObject *m = PyLong_FromLong(move_number(S->line[i][0], S->line[i][1]));
            if (!m) { Py_CLEAR(line); break; }
            PyList_SET_ITEM(line, i, m);
        }
        if (line)
            result = Py_BuildValue("((i)OLN)", (int)S->best, S->out ? Py_False : Py_True,
                                   S->nodes, line);
    }
    free(S->T.slots);
    free(S);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, "search(state, budget, seed) -> (score, exact, nodes, "
     "line): Scoundrel's branch and bound from a state."},
    {"moves", py_moves, METH_O, "moves(state) -> [move, ...]: the legal moves, in the "
     "engine's order."},
    {"play", py_play, METH_VARARGS, "play(state, move) -> state: the state after a move."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "Scoundrel's native search (rules/scoundrel/_native.c).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
