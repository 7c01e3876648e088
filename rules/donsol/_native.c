/* Donsol's native search: the rules of rules/donsol/engine.py and the knowledge of
 * rules/donsol/solver.py (key, dominance, bound, move order), run by the branch and bound of
 * rules/search.py, in C for speed. The Python engine stays the truth: rules/native.py
 * replays every line this returns through it and checks the score.
 *
 * Cards are their places in rules.cards.CANONICAL (suits S H D C of A..K, then the red and
 * the black joker). An escape reshuffles with the seed's stream: block b of the stream is
 * SHA-256(seed || b), four big-endian words (docs/deal.md), computed here and drawn exactly
 * as rules.deal.Stream draws them.
 *
 * Reentrant: every call allocates and frees its own table and stream cache; nothing global
 * is written. The search runs without the GIL. No clock: a node budget. */
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
#define WINDOW 8192      /* stream words a search may draw from its root's position */
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

/* The stream's words from a root position on, each block hashed once per call. */
typedef struct {
    uint64_t seed;
    int32_t start;                 /* the position of words[0] */
    uint64_t words[WINDOW];
    uint8_t have[WINDOW / 4 + 1];  /* per block from start's block: hashed yet */
} Stream;

typedef struct {
    uint8_t value[MAXC];
    uint8_t kind[MAXC];
    int variant;
    Stream *stream;
} Rules;

/* ----- the stream (rules/deal.py, SHA-256 per FIPS 180-4) ------------------------------ */

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* SHA-256 of the 16 bytes seed || block (both big-endian), as four big-endian words. */
static void stream_block(uint64_t seed, uint64_t block, uint64_t out[4]) {
    uint32_t w[64] = {
        (uint32_t)(seed >> 32), (uint32_t)seed, (uint32_t)(block >> 32), (uint32_t)block,
        0x80000000u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128,  /* padding; 128 bits long */
    };
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = k + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) +
                      K256[i] + w[i];
        uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
    for (int i = 0; i < 4; i++) out[i] = (uint64_t)h[2 * i] << 32 | h[2 * i + 1];
}

/* Word `pos` of the stream; 0 in *ok when it lies outside the cache's window. */
static uint64_t stream_word(Stream *S, int32_t pos, int *ok) {
    int32_t first = S->start & ~3, k = pos - first;
    if (pos < S->start || k >= WINDOW) {
        *ok = 0;
        return 0;
    }
    int b = k >> 2;
    if (!S->have[b]) {
        stream_block(S->seed, (uint64_t)(pos >> 2), &S->words[b * 4]);
        S->have[b] = 1;
    }
    return S->words[k];
}

/* Each card's value and role, from its place in CANONICAL (engine.value, engine.role). */
static void fill_cards(Rules *R) {
    static const uint8_t monster_face[13] = {17, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15};
    static const uint8_t other_face[13] = {11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 11};
    for (int i = 0; i < 52; i++) {
        int suit = i / 13, rank = i % 13;  /* S H D C; A 2 .. 10 J Q K */
        if (suit == 0 || suit == 3) {
            R->kind[i] = MONSTER;
            R->value[i] = monster_face[rank];
        } else {
            R->kind[i] = suit == 1 ? POTION : SHIELD;
            R->value[i] = other_face[rank];
        }
    }
    R->kind[52] = R->kind[53] = MONSTER;
    R->value[52] = R->value[53] = 21;
}

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
        o->shield = (int16_t)card;
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

/* Escape (DonsolState._escape): the dungeon then the room, shuffled Fisher-Yates with
 * rules.deal.Stream.below's rejection; 0 when the stream's window ran out. */
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
            x = stream_word(R->stream, pos++, &ok);
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

/* ----- Python's side (rules/native.py) ----------------------------------------------- */

/* Read an encoded state (DonsolNative.encode: variant, seed, dungeon, room, hp, shield,
 * last, sick, escaped_last, first_room, xp, outcome, stream) into R and s. 0 with an
 * exception set. */
static int parse(PyObject *state, Rules *R, State *s, Stream *stream) {
    const char *dungeon, *room;
    Py_ssize_t nd, nr;
    unsigned long long seed;
    int variant, hp, shield, last, sick, esc, first, xp, outcome;
    long long pos;
    if (!PyTuple_Check(state)) {
        PyErr_SetString(PyExc_TypeError, "a Donsol state is a tuple");
        return 0;
    }
    if (!PyArg_ParseTuple(state, "iKy#y#iiiiiiiiL", &variant, &seed, &dungeon, &nd, &room, &nr,
                          &hp, &shield, &last, &sick, &esc, &first, &xp, &outcome, &pos))
        return 0;
    memset(s, 0, sizeof *s);
    if (variant < 0 || variant > HARD || nd > MAXC || nr > ROOM || nd + nr > MAXC ||
        hp < 0 || hp > MAX_HP || shield < -1 || shield >= MAXC || last < 0 || last > FRESH ||
        xp < 0 || xp > DECK_SIZE || outcome < 0 || outcome > DEAD || pos < 0 ||
        pos > INT32_MAX - 2 * WINDOW) {
        PyErr_SetString(PyExc_ValueError, "a Donsol state field is out of range");
        return 0;
    }
    for (Py_ssize_t i = 0; i < nd; i++)
        if ((uint8_t)dungeon[i] >= MAXC) goto bad_card;
    for (Py_ssize_t i = 0; i < nr; i++)
        if ((uint8_t)room[i] >= MAXC) goto bad_card;
    fill_cards(R);
    R->variant = variant;
    R->stream = stream;
    memset(stream->have, 0, sizeof stream->have);
    stream->seed = seed;
    stream->start = (int32_t)pos;
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
    s->stream = (int32_t)pos;
    return 1;
bad_card:
    PyErr_SetString(PyExc_ValueError, "a card index is out of range");
    return 0;
}

/* A state in the encoding parse reads. */
static PyObject *build_state(const Rules *R, const State *s) {
    return Py_BuildValue("iKy#y#iiiiiiiiL", R->variant, (unsigned long long)R->stream->seed,
                         (const char *)s->dungeon, (Py_ssize_t)s->nd, (const char *)s->room,
                         (Py_ssize_t)s->nr, (int)s->hp, (int)s->shield, (int)s->last,
                         (int)s->sick, (int)s->escaped_last, (int)s->first_room, (int)s->xp,
                         (int)s->outcome, (long long)s->stream);
}

static PyObject *stream_short(void) {
    PyErr_SetString(PyExc_ValueError, "the native search drew past its stream window");
    return NULL;
}

/* moves(state) -> [move, ...]: the legal moves in the engine's order (card index; -1 for
 * escape). A debug entry point: tests compare it with the engine. */
static PyObject *py_moves(PyObject *self, PyObject *arg) {
    Rules R;
    State s;
    Stream *stream = malloc(sizeof *stream);
    if (!stream) return PyErr_NoMemory();
    if (!parse(arg, &R, &s, stream)) { free(stream); return NULL; }
    Child kids[ROOM + 1];
    int n = children(&R, &s, kids, 0);
    free(stream);
    if (n < 0) return stream_short();
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *m = PyLong_FromLong(kids[i].move == ESCAPE ? -1 : kids[i].move);
        if (!m) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, m);
    }
    return out;
}

/* play(state, move) -> state: the state after one legal move (debug entry point). */
static PyObject *py_play(PyObject *self, PyObject *args) {
    PyObject *state;
    int move;
    Rules R;
    State s;
    if (!PyArg_ParseTuple(args, "Oi", &state, &move)) return NULL;
    Stream *stream = malloc(sizeof *stream);
    if (!stream) return PyErr_NoMemory();
    if (!parse(state, &R, &s, stream)) { free(stream); return NULL; }
    Child kids[ROOM + 1];
    int n = children(&R, &s, kids, 0);
    PyObject *out = NULL;
    if (n < 0) stream_short();
    for (int i = 0; i < n && !out; i++)
        if ((kids[i].move == ESCAPE ? -1 : kids[i].move) == move)
            out = build_state(&R, &kids[i].child);
    if (n >= 0 && !out && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "%d is not a legal move here", move);
    free(stream);
    return out;
}

/* search(state, budget, seed) -> (score, exact, nodes, line): the best final score found
 * ((xp, hp)), whether the search finished, the nodes it counted and its line (moves as
 * moves() writes them). budget < 0: none. The seed is unused (no probing dives here). */
static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *state;
    long long budget, unused;
    Rules R;
    State s;
    if (!PyArg_ParseTuple(args, "OLL", &state, &budget, &unused)) return NULL;
    Search *S = calloc(1, sizeof *S);
    Stream *stream = S ? malloc(sizeof *stream) : NULL;
    /* The table starts small and doubles as it fills, up to about two ways per node of the
     * budget and at most 2^21 buckets (200 MB). */
    uint64_t buckets = 1u << 10, most = buckets;
    while (most < (1u << 21) && (budget < 0 || (long long)(most * WAYS) < 2 * budget))
        most <<= 1;
    Entry *slots = stream ? calloc(buckets * WAYS, sizeof(Entry)) : NULL;
    if (!slots) {
        free(stream);
        free(S);
        return PyErr_NoMemory();
    }
    if (!parse(state, &R, &s, stream)) {
        free(slots);
        free(stream);
        free(S);
        return NULL;
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
    PyObject *result = NULL;
    if (!ok) {
        stream_short();
    } else {
        PyObject *line = PyList_New(S->nline);
        for (int i = 0; line && i < S->nline; i++) {
            PyObject *m = PyLong_FromLong(S->line[i] == ESCAPE ? -1 : S->line[i]);
            if (!m) { Py_CLEAR(line); break; }
            PyList_SET_ITEM(line, i, m);
        }
        if (line)
            result = Py_BuildValue("((ii)OLN)", (int)(S->best / 32), (int)(S->best % 32),
                                   S->out ? Py_False : Py_True, S->nodes, line);
    }
    free(S->T.slots);
    free(stream);
    free(S);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, "search(state, budget, seed) -> (score, exact, nodes, "
     "line): Donsol's branch and bound from a state."},
    {"moves", py_moves, METH_O, "moves(state) -> [move, ...]: the legal moves, in the "
     "engine's order."},
    {"play", py_play, METH_VARARGS, "play(state, move) -> state: the state after a move."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "Donsol's native search (rules/donsol/_native.c).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
