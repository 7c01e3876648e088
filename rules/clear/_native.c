/* Clear the Dungeon's native search: rules/clear/solver.py's branch and bound, in C.
 *
 * The same rules as rules/clear/engine.py (the engine stays the truth: rules/native.py
 * replays every line this returns), the same key with its symmetry, the same upper bound
 * (_bound, _stuck, _fits, _can_finish) and the same move order as the Python strategy,
 * over rules/search.py's search: a first dive, randomised probing dives, then a
 * depth-first branch and bound with a table of proven upper bounds.
 *
 * State as Python hands it (rules/clear/solver.py, ClearNative.encode): a tuple
 *   (piles, attack, talon, hand, reserve, outcome)
 * of card numbers (the index in rules.cards.CANONICAL: suit * 13 + rank - 1, jokers 52
 * and 53), piles bottom to top, talon top first, hand three slots (-1: empty), reserve
 * bottom to top, outcome 0 (playing), 1 (won) or 2 (stuck). A move is card * 8 + target:
 * target 0-3 puts the card (from the hand or the reserve's top) on that pile, 4 puts a
 * hand card on the reserve. A score is slain * 64 + spare.
 *
 * Reentrant: no global mutable state; each search allocates and frees its own table. The
 * GIL is released around the search, which touches no Python object.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PILES 4
#define PILE_SIZE 3
#define MONSTERS 12
#define HAND 3
#define CARDS 54
#define POWER_CARDS 42
#define MAX_RESERVE POWER_CARDS
#define MAX_TALON 39
#define MAX_LINE 128
#define MAX_MOVES 32
#define JOKER 4
#define LOW 5
#define NOTHING (-1)
#define WON 1
#define STUCK 2
#define PROBE_DIVES 2000
#define PROBE_PATIENCE 500
#define SKIP ((uint32_t)(4294967296.0 * 0.2)) /* a probing dive passes over a move: 0.2 */
#define PROBE_SHARE 800 /* per mille of the budget the dives may use (0.8) */
#define BUCKET 4

typedef struct {
    int8_t pile[PILES][PILE_SIZE];
    uint8_t plen[PILES];
    int8_t att[PILES][2];
    uint8_t alen[PILES];
    int8_t hand[HAND];
    uint8_t tpos; /* cards of the talon already dealt */
    uint8_t rlen;
    uint8_t outcome;
    int8_t res[MAX_RESERVE];
} State;

typedef struct {
    uint64_t a, b;
    int32_t value;
    int32_t used;
} Entry;

typedef struct {
    int8_t talon[MAX_TALON];
    uint8_t tlen;
    long long budget; /* -1: none */
    long long nodes;
    int out; /* the budget ran out */
    int best;
    int line[MAX_LINE];
    int line_len;
    int path[MAX_LINE];
    int depth;
    Entry *table;
    uint64_t mask; /* buckets - 1 */
    uint64_t rng;
    long long share; /* per mille of the budget the probing dives may use */
    int alive; /* the dives step only onto children whose bound beats the incumbent */
} Search;

/* ----- cards ------------------------------------------------------------------------- */

/* A card's suit: 0-3, or JOKER. */
static inline int suit_of(int c) { return c >= 52 ? JOKER : c / 13; }
/* A card's rank: 1-13 (A-K); a joker 14. */
static inline int rank_of(int c) { return c >= 52 ? 14 : c % 13 + 1; }
/* A power card's value: A 1, 2-10, jokers 10. */
static inline int value_of(int c) { return c >= 52 ? 10 : c % 13 + 1; }
/* A monster's power: J 11, Q 12, K 13. */
static inline int power_of(int c) { return c % 13 + 1; }
static inline int is_monster(int c) { return c < 52 && c % 13 >= 10; }

/* Whether card c may go next onto pile i's top monster. */
static int fits(const State *s, int c, int i) {
    if (s->plen[i] == 0) return 0;
    int m = s->pile[i][s->plen[i] - 1];
    int p = power_of(m);
    switch (s->alen[i]) {
    case 0: return value_of(c) + 10 >= p;
    case 1: return value_of(s->att[i][0]) + value_of(c) >= p;
    default: return suit_of(c) == JOKER || suit_of(c) == suit_of(m);
    }
}

static int slain(const State *s) {
    int n = MONSTERS;
    for (int i = 0; i < PILES; i++) n -= s->plen[i];
    return n;
}

static int held(const State *s) {
    int n = 0;
    for (int k = 0; k < HAND; k++) n += s->hand[k] >= 0;
    return n;
}

/* The engine's score, as one number: slain * 64 + spare (power deck plus hand). */
static int score(const Search *x, const State *s) {
    return slain(s) * 64 + (x->tlen - s->tpos) + held(s);
}

/* ----- rules ------------------------------------------------------------------------- */

/* The legal moves in the engine's order (CLEAR.actions): each source (hand slots, then the
 * reserve's top) onto each pile it fits, then each hand card onto the reserve. */
static int moves(const State *s, int *out) {
    int n = 0;
    if (s->outcome) return 0;
    int src[HAND + 1], ns = 0;
    for (int k = 0; k < HAND; k++)
        if (s->hand[k] >= 0) src[ns++] = s->hand[k];
    if (s->rlen) src[ns++] = s->res[s->rlen - 1];
    for (int j = 0; j < ns; j++)
        for (int i = 0; i < PILES; i++)
            if (fits(s, src[j], i)) out[n++] = src[j] * 8 + i;
    for (int k = 0; k < HAND; k++)
        if (s->hand[k] >= 0) out[n++] = s->hand[k] * 8 + 4;
    return n;
}

/* Whether the reserve's top card fits some monster. */
static int playable(const State *s) {
    if (!s->rlen) return 0;
    int top = s->res[s->rlen - 1];
    for (int i = 0; i < PILES; i++)
        if (fits(s, top, i)) return 1;
    return 0;
}

/* The state after a legal move (the engine's _put / _to_reserve / _settle). */
static void play(const Search *x, const State *s, int move, State *t) {
    *t = *s;
    int c = move / 8, target = move % 8;
    int from_hand = 0;
    for (int k = 0; k < HAND; k++)
        if (t->hand[k] == c) { t->hand[k] = -1; from_hand = 1; }
    if (target == 4) {
        t->res[t->rlen++] = (int8_t)c;
    } else {
        if (!from_hand) t->rlen--;
        int i = target;
        if (t->alen[i] < 2) {
            t->att[i][t->alen[i]++] = (int8_t)c;
        } else {
            t->plen[i]--;
            t->alen[i] = 0;
        }
    }
    int empty = t->hand[0] < 0 && t->hand[1] < 0 && t->hand[2] < 0;
    if (from_hand && empty && t->tpos < x->tlen) {
        for (int k = 0; k < HAND && t->tpos < x->tlen; k++) t->hand[k] = x->talon[t->tpos++];
        empty = 0;
    }
    if (slain(t) == MONSTERS) t->outcome = WON;
    else if (empty && t->tpos >= x->tlen && !playable(t)) t->outcome = STUCK;
}

/* ----- the key ----------------------------------------------------------------------- */

/* Two 64-bit hashes of the key (ClearStrategy.key): the piles' heights (the piles are the
 * root's, cut down), what each top monster's next card must beat, the power deck's length,
 * the hand as a sorted set of looks and the reserve in order. A card's look is its value,
 * and its suit while a monster of that suit stands (jokers keep theirs). */
static void key(const State *s, uint64_t *ha, uint64_t *hb) {
    uint8_t bytes[8 + PILES + HAND + MAX_RESERVE];
    int n = 0, standing = 0;
    for (int i = 0; i < PILES; i++)
        for (int k = 0; k < s->plen[i]; k++) standing |= 1 << suit_of(s->pile[i][k]);
    standing |= 1 << JOKER;
#define LOOK(c) ((uint8_t)(value_of(c) * 8 + ((standing >> suit_of(c)) & 1 ? suit_of(c) : 5)))
    for (int i = 0; i < PILES; i++) {
        bytes[n++] = s->plen[i];
        bytes[n++] = (uint8_t)(s->alen[i] == 1 ? 16 + value_of(s->att[i][0]) : s->alen[i]);
    }
    bytes[n++] = s->tpos;
    uint8_t h[HAND];
    int nh = 0;
    for (int k = 0; k < HAND; k++)
        if (s->hand[k] >= 0) h[nh++] = LOOK(s->hand[k]);
    for (int a = 1; a < nh; a++)
        for (int b = a; b > 0 && h[b - 1] > h[b]; b--) { uint8_t t = h[b]; h[b] = h[b - 1]; h[b - 1] = t; }
    bytes[n++] = (uint8_t)nh;
    for (int k = 0; k < nh; k++) bytes[n++] = h[k];
    bytes[n++] = s->rlen;
    for (int k = 0; k < s->rlen; k++) bytes[n++] = LOOK(s->res[k]);
#undef LOOK
    uint64_t a = 0xcbf29ce484222325ULL, b = 0x9e3779b97f4a7c15ULL;
    for (int k = 0; k < n; k++) {
        a = (a ^ bytes[k]) * 0x100000001b3ULL;
        b = (b + bytes[k] + 1) * 0xff51afd7ed558ccdULL;
        b ^= b >> 29;
    }
    a ^= a >> 31; a *= 0xbf58476d1ce4e5b9ULL; a ^= a >> 27;
    *ha = a;
    *hb = b | 1; /* never 0: 0 marks an empty slot */
}

/* The bound the table proves for a key, or NOTHING - 1 (none known). */
static int recall(const Search *x, uint64_t a, uint64_t b) {
    const Entry *e = x->table + (a & x->mask) * BUCKET;
    for (int k = 0; k < BUCKET; k++)
        if (e[k].b == b && e[k].a == a) return e[k].value;
    return NOTHING - 1;
}

/* Remember a bound: the key's own slot, else an empty one, else the bucket's oldest. */
static void remember(Search *x, uint64_t a, uint64_t b, int value) {
    Entry *e = x->table + (a & x->mask) * BUCKET;
    int slot = -1;
    for (int k = 0; k < BUCKET; k++)
        if ((e[k].b == b && e[k].a == a) || e[k].b == 0) { slot = k; break; }
    if (slot < 0) {
        memmove(e, e + 1, sizeof(Entry) * (BUCKET - 1));
        slot = BUCKET - 1;
    }
    e[slot].a = a;
    e[slot].b = b;
    e[slot].value = value;
}

/* ----- the bound (rules/clear/solver.py: _bound, _stuck, _fits, _can_finish) --------- */

static void sort_ints(int *v, int n) {
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && v[b - 1] > v[b]; b--) { int t = v[b]; v[b] = v[b - 1]; v[b - 1] = t; }
}

/* _fits: whether `cards` could all go onto distinct slots of the standing monsters: a third
 * slot takes a card of its monster's suit (or a joker), a first or second any card that can
 * still reach the power; a monster's first two cards are not both worth LOW or less. Each
 * suit's lowest cards take its third slots, the rest need first or second slots, the low
 * ones among them slots that take them (Hall's condition on nested sets: for each value v,
 * no more of them worth v or less than slots taking such a card, `lows[v]`). Jokers take
 * any slot left. Counting by value instead of sorting. */
static int fits_slots(const int8_t *cards, int n, const int *thirds, int pairs, const int *lows) {
    int hist[4][11], cnt[4] = {0, 0, 0, 0}, jokers = 0;
    memset(hist, 0, sizeof hist);
    for (int k = 0; k < n; k++) {
        int su = suit_of(cards[k]);
        if (su == JOKER) jokers++;
        else { hist[su][value_of(cards[k])]++; cnt[su]++; }
    }
    int free = 0, count = 0, paired[LOW + 1] = {0, 0, 0, 0, 0, 0};
    for (int su = 0; su < 4; su++) {
        int t = thirds[su], c = cnt[su];
        if (c <= t) { free += t - c; continue; }
        count += c - t;
        int skip = t; /* the t lowest take the third slots */
        for (int v = 1; v <= LOW; v++) {
            int h = hist[su][v];
            int gone = h < skip ? h : skip;
            skip -= gone;
            paired[v] += h - gone;
        }
    }
    if (count > pairs) return 0;
    int so_far = 0;
    for (int v = 1; v <= LOW; v++) {
        so_far += paired[v];
        if (paired[v] && lows[v] < so_far) return 0;
    }
    return jokers <= pairs - count + free;
}

/* _stuck: how many reserve cards, from the bottom, can never leave it. */
static int stuck_count(const State *s) {
    if (!s->rlen) return 0;
    int thirds[4] = {0, 0, 0, 0}, pairs = 0, low[LOW + 1] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < PILES; i++)
        for (int k = 0; k < s->plen[i]; k++) {
            int m = s->pile[i][k];
            thirds[suit_of(m)]++;
            if (k < s->plen[i] - 1 || !s->alen[i]) {
                pairs += 2;
                low[power_of(m) - 10]++;
            } else if (s->alen[i] == 1) {
                pairs += 1;
                int least = power_of(m) - value_of(s->att[i][0]);
                if (least <= LOW) low[least > 0 ? least : 0]++;
            }
        }
    int lows[LOW + 1]; /* slots that take a card worth v or less */
    lows[0] = low[0];
    for (int v = 1; v <= LOW; v++) lows[v] = lows[v - 1] + low[v];
    int r = s->rlen;
    if (fits_slots(s->res, r, thirds, pairs, lows)) return 0;
    int fit = 0, unfit = r;
    while (unfit - fit > 1) {
        int mid = (fit + unfit) / 2;
        if (fits_slots(s->res + r - mid, mid, thirds, pairs, lows)) fit = mid;
        else unfit = mid;
    }
    return r - fit;
}

/* A pool of cards as _can_finish reads it: per suit (jokers apart), how many of each value. */
typedef struct {
    int hist[5][11];
    int all[11];
    int count[5];
    int sum[5];
    int n, total;
} Pool;

static void pool_add(Pool *p, int card) {
    int su = suit_of(card), v = value_of(card);
    p->hist[su][v]++;
    p->all[v]++;
    p->count[su]++;
    p->sum[su] += v;
    p->n++;
    p->total += v;
}

/* _can_finish: whether the pool could finish every standing monster, order aside: `needed`
 * cards in all, a third card of each monster's suit (or a joker), and first and second
 * cards (`pairs` of them) worth `power` together; `big`, high to low, what each monster's
 * greater first or second card must reach. Counting by value (1-10) instead of sorting. */
static int can_finish(const Pool *p, int needed, const int *thirds, int pairs, int power,
                      const int *big, int nbig) {
    int n = p->n, unused = n - needed;
    if (unused < 0) return 0;
    int jokers = p->count[JOKER], short_ = 0, least = 0;
    for (int su = 0; su < 4; su++) {
        int t = thirds[su];
        if (!t) continue;
        if (t > p->count[su]) {
            short_ += t - p->count[su];
            least += p->sum[su];
        } else {
            for (int v = 1; v <= 10 && t > 0; v++) {
                int take = p->hist[su][v] < t ? p->hist[su][v] : t;
                least += take * v;
                t -= take;
            }
        }
    }
    if (short_ > jokers) return 0;
    least += 10 * short_;
    /* the k-th highest need must be met by the k-th highest card */
    int v = 10, left = p->all[10];
    for (int k = 0; k < nbig; k++) {
        while (!left && v > 1) left = p->all[--v];
        if (!left || v < big[k]) return 0;
        left--;
    }
    int low_sum = 0, want = unused;
    for (int u = 1; u <= 10 && want > 0; u++) {
        int take = p->all[u] < want ? p->all[u] : want;
        low_sum += take * u;
        want -= take;
    }
    if (p->total - least - low_sum < power) return 0;
    if (!pairs) return 1;
    int top = 0;
    want = pairs;
    for (int u = 10; u >= 1 && want > 0; u--) {
        int take = p->all[u] < want ? p->all[u] : want;
        top += take * u;
        want -= take;
    }
    return top >= power;
}

/* ClearStrategy.bound of a game not over: a score no line from s can beat. */
static int bound(const Search *x, const State *s) {
    int costs[MONSTERS], nc = 0;
    int thirds[4] = {0, 0, 0, 0}, pairs = 0, power = 0, big[MONSTERS], nbig = 0;
    int sl = slain(s);
    for (int i = 0; i < PILES; i++) {
        int h = s->plen[i];
        if (!h) continue;
        costs[nc++] = 3 - s->alen[i];
        for (int k = 1; k < h; k++) costs[nc++] = 3;
        for (int k = 0; k < h; k++) {
            int m = s->pile[i][k];
            thirds[suit_of(m)]++;
            pairs += 2;
            power += power_of(m);
            big[nbig++] = (power_of(m) + 1) / 2;
        }
        if (s->alen[i]) {
            int top = power_of(s->pile[i][h - 1]);
            nbig--;
            pairs -= s->alen[i];
            power -= top;
            if (s->alen[i] == 1) {
                int need = top - value_of(s->att[i][0]);
                power += need > 0 ? need : 0;
                big[nbig++] = need;
            }
        }
    }
    int hand[HAND], nh = 0;
    for (int k = 0; k < HAND; k++)
        if (s->hand[k] >= 0) hand[nh++] = s->hand[k];
    int talon = x->tlen - s->tpos;
    int spare = talon + nh, needed = 0;
    for (int k = 0; k < nc; k++) needed += costs[k];
    int rfrom = stuck_count(s); /* the reserve from here up may still leave */
    int rlen = s->rlen - rfrom;
    /* big, high to low */
    sort_ints(big, nbig);
    for (int a = 0, b = nbig - 1; a < b; a++, b--) { int t = big[a]; big[a] = big[b]; big[b] = t; }
    if (spare + rlen >= needed) {
        int best = spare - (needed - rlen > 0 ? needed - rlen : 0);
        int dealt = talon / HAND;
        /* blocks from high to low: the pool grows by one hand of the power deck a step */
        Pool pool;
        memset(&pool, 0, sizeof pool);
        for (int k = rfrom; k < s->rlen; k++) pool_add(&pool, s->res[k]);
        int added = -1; /* talon cards added so far (-1: the hand not yet) */
        for (int blocks = best / 3; blocks >= 0; blocks--) {
            if (blocks > dealt + 1) continue;
            if (blocks <= dealt) {
                if (added < 0) {
                    for (int k = 0; k < nh; k++) pool_add(&pool, hand[k]);
                    added = 0;
                }
                int upto = x->tlen - HAND * blocks - s->tpos;
                for (; added < upto; added++) pool_add(&pool, x->talon[s->tpos + added]);
            }
            if (can_finish(&pool, needed, thirds, pairs, power, big, nbig)) {
                int cap = 3 * blocks + 2;
                return MONSTERS * 64 + (best < cap ? best : cap);
            }
        }
    }
    /* No win: stuck, which ends with the hand and the power deck spent. */
    int cards = spare + rlen, falls = 0;
    sort_ints(costs, nc);
    for (int k = 0; k < nc; k++) {
        if (costs[k] > cards) break;
        cards -= costs[k];
        falls++;
    }
    int have[5] = {0, 0, 0, 0, 0};
    for (int k = 0; k < nh; k++) have[suit_of(hand[k])]++;
    for (int k = rfrom; k < s->rlen; k++) have[suit_of(s->res[k])]++;
    for (int k = s->tpos; k < x->tlen; k++) have[suit_of(x->talon[k])]++;
    int can = 0, standing = 0;
    for (int su = 0; su < 4; su++) {
        can += thirds[su] < have[su] ? thirds[su] : have[su];
        standing += thirds[su];
    }
    can += have[JOKER] < standing - can ? have[JOKER] : standing - can;
    int most = falls;
    if (can < most) most = can;
    if (MONSTERS - sl - 1 < most) most = MONSTERS - sl - 1;
    return (sl + most) * 64;
}

static int bound_of(const Search *x, const State *s) {
    return s->outcome ? score(x, s) : bound(x, s);
}

/* ----- the search (rules/search.py) -------------------------------------------------- */

/* Whether card a can do all card b can, while the suits in `standing` (a bit per suit)
 * stand: a value at least b's, and b's suit (as a third card) if it matters. */
static int covers(int a, int b, int standing) {
    if (value_of(a) < value_of(b)) return 0;
    int sa = suit_of(a), sb = suit_of(b);
    if (sa == JOKER || sa == sb) return 1;
    if (sb == JOKER) return (standing & 0xF & ~(1 << sa)) == 0;
    return !((standing >> sb) & 1);
}

/* Whether hand move k is dominated by another hand move of `legal` to the same target: the
 * same look (the same child, by the key), or, onto a monster's second or third slot, a
 * card the kept one covers (the monster then needs the same, whichever card went on, and
 * the hand keeps the stronger). Ties go to the earlier move. Not in the Python strategy:
 * it prunes only moves no better than one it keeps. */
static int dominated(const State *s, const int *legal, int n, int k, int standing) {
    int c = legal[k] / 8, target = legal[k] % 8;
    if (s->rlen && c == s->res[s->rlen - 1]) return 0; /* from the reserve */
    int slot = target < PILES && s->alen[target] >= 1;
    for (int j = 0; j < n; j++) {
        int d = legal[j] / 8;
        if (j == k || legal[j] % 8 != target || (s->rlen && d == s->res[s->rlen - 1])) continue;
        int back = covers(d, c, standing), fore = covers(c, d, standing);
        if (back && fore) { if (j < k) return 1; continue; } /* the same look */
        if (slot && fore) return 1; /* c covers d: play d, keep c */
    }
    return 0;
}

/* The children in ClearStrategy.children's order: a finishing card first, then the
 * reserve's top card, then second and first attack cards (the weakest first), a move to
 * the reserve last; ties in the engine's order. Dominated moves are left out. */
static int children(const State *s, int *out) {
    int legal[MAX_MOVES];
    int n = moves(s, legal);
    int top = s->rlen ? s->res[s->rlen - 1] : -1;
    int standing = 0;
    for (int i = 0; i < PILES; i++)
        for (int k = 0; k < s->plen[i]; k++) standing |= 1 << suit_of(s->pile[i][k]);
    long rank[MAX_MOVES];
    int m = 0;
    for (int k = 0; k < n; k++) {
        if (dominated(s, legal, n, k, standing)) continue;
        int c = legal[k] / 8, target = legal[k] % 8, r;
        if (target == 4) r = 4;
        else if (s->alen[target] == 2) r = 0;
        else if (c == top) r = 1;
        else r = 3 - s->alen[target];
        rank[m++] = ((long)r * 16 + value_of(c)) * MAX_MOVES + k;
    }
    for (int a = 1; a < m; a++)
        for (int b = a; b > 0 && rank[b - 1] > rank[b]; b--) { long t = rank[b]; rank[b] = rank[b - 1]; rank[b - 1] = t; }
    for (int k = 0; k < m; k++) out[k] = legal[rank[k] % MAX_MOVES];
    return m;
}

/* Count a node; 0 once the budget has run out. */
static int count(Search *x) {
    x->nodes++;
    if (x->budget >= 0 && x->nodes > x->budget) { x->out = 1; return 0; }
    return 1;
}

/* A uniform number in [0, 1) as a fraction of 2^32 (splitmix64). */
static uint32_t next_random(Search *x) {
    uint64_t z = (x->rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* Follow the first move of each state to the end: a first incumbent, never counted. */
static void dive(Search *x, const State *root) {
    State s = *root, t;
    int kids[MAX_MOVES], n = 0;
    while ((n = children(&s, kids)) > 0 && n <= MAX_MOVES && n >= 1 && x->line_len < MAX_LINE) {
        x->line[x->line_len++] = kids[0];
        play(x, &s, kids[0], &t);
        s = t;
    }
    x->best = score(x, &s);
}

/* Randomised dives (Search._probe): each move but the last is passed over with chance 0.2;
 * with a budget they use 0.8 of it, without one at most PROBE_DIVES, stopping after
 * PROBE_PATIENCE in a row find nothing better. */
static void probe(Search *x, const State *root) {
    long long limit = x->budget >= 0 ? x->nodes + x->budget * x->share / 1000 : -1;
    int top = bound_of(x, root), done = 0, since = 0;
    int path[MAX_LINE];
    while (x->best < top && (limit >= 0 || (done < PROBE_DIVES && since < PROBE_PATIENCE))) {
        done++;
        since++;
        State s = *root, t;
        int len = 0, finished = 0;
        for (;;) {
            if (s.outcome) { finished = 1; break; }
            if (bound_of(x, &s) <= x->best) break;
            if (!count(x)) return;
            int kids[MAX_MOVES];
            int n = children(&s, kids);
            if (!n || len >= MAX_LINE) break;
            if (!x->alive) {
                int k = 0;
                while (k < n - 1 && next_random(x) < SKIP) k++;
                path[len++] = kids[k];
                play(x, &s, kids[k], &t);
                s = t;
                continue;
            }
            /* Only children whose bound beats the incumbent: each passed over with chance
             * SKIP, the last of them taken. */
            int picked = -1;
            State last;
            for (int k = 0; k < n; k++) {
                play(x, &s, kids[k], &t);
                if (bound_of(x, &t) <= x->best) continue;
                picked = kids[k];
                last = t;
                if (next_random(x) >= SKIP) break;
            }
            if (picked < 0) break;
            path[len++] = picked;
            s = last;
        }
        if (finished) {
            int sc = score(x, &s);
            if (sc > x->best) {
                x->best = sc;
                memcpy(x->line, path, sizeof(int) * (size_t)len);
                x->line_len = len;
                since = 0;
            }
        }
        if (limit >= 0 && x->nodes >= limit) return;
    }
}

/* Search s (Search._visit): an upper bound on its value, exact when it beat the incumbent. */
static int visit(Search *x, const State *s) {
    if (s->outcome) {
        int sc = score(x, s);
        if (sc > x->best) {
            x->best = sc;
            memcpy(x->line, x->path, sizeof(int) * (size_t)x->depth);
            x->line_len = x->depth;
        }
        return sc;
    }
    uint64_t ka, kb;
    key(s, &ka, &kb);
    int known = recall(x, ka, kb);
    if (known >= NOTHING && known <= x->best) return known;
    int b = bound(x, s);
    if (known >= NOTHING && known < b) b = known;
    if (b <= x->best) return b;
    if (!count(x)) return b;
    int kids[MAX_MOVES];
    int n = children(s, kids);
    int top = NOTHING, finished = 1;
    for (int k = 0; k < n && x->depth < MAX_LINE; k++) {
        State t;
        play(x, s, kids[k], &t);
        x->path[x->depth++] = kids[k];
        int v = visit(x, &t);
        x->depth--;
        if (x->out) return b;
        if (v > top) top = v;
        if (x->best >= b) { finished = 0; break; }
    }
    int value = finished ? (top < b ? top : b) : b;
    remember(x, ka, kb, value);
    return value;
}

/* ----- Python ------------------------------------------------------------------------ */

/* Read a sequence of card numbers into out (at most cap), -1 allowed when empty_ok. */
static int read_cards(PyObject *seq, int8_t *out, int cap, int empty_ok, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > cap) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d cards", what, cap);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (c == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        if (c < (empty_ok ? -1 : 0) || c >= CARDS) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: %ld is no card", what, c);
            return -1;
        }
        out[k] = (int8_t)c;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* A state from its Python encoding (see the top of this file), every index checked. */
static int parse(PyObject *obj, State *s, Search *x) {
    memset(s, 0, sizeof *s);
    PyObject *piles, *attack, *talon, *hand, *reserve;
    int outcome;
    if (!PyArg_ParseTuple(obj, "OOOOOi", &piles, &attack, &talon, &hand, &reserve, &outcome))
        return -1;
    PyObject *fp = PySequence_Fast(piles, "piles"), *fa = PySequence_Fast(attack, "attack");
    if (!fp || !fa || PySequence_Fast_GET_SIZE(fp) != PILES || PySequence_Fast_GET_SIZE(fa) != PILES) {
        Py_XDECREF(fp);
        Py_XDECREF(fa);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "four piles and four attacks");
        return -1;
    }
    int ok = 0;
    for (int i = 0; i < PILES && !ok; i++) {
        int n = read_cards(PySequence_Fast_GET_ITEM(fp, i), s->pile[i], PILE_SIZE, 0, "pile");
        int m = read_cards(PySequence_Fast_GET_ITEM(fa, i), s->att[i], 2, 0, "attack");
        if (n < 0 || m < 0) { ok = -1; break; }
        if (m && !n) { PyErr_SetString(PyExc_ValueError, "attack on an empty pile"); ok = -1; break; }
        for (int k = 0; k < n; k++)
            if (!is_monster(s->pile[i][k])) { PyErr_SetString(PyExc_ValueError, "a pile holds monsters only"); ok = -1; }
        for (int k = 0; k < m; k++)
            if (is_monster(s->att[i][k])) { PyErr_SetString(PyExc_ValueError, "a monster in an attack"); ok = -1; }
        s->plen[i] = (uint8_t)n;
        s->alen[i] = (uint8_t)m;
    }
    Py_DECREF(fp);
    Py_DECREF(fa);
    if (ok < 0) return -1;
    int nt = read_cards(talon, x->talon, MAX_TALON, 0, "talon");
    if (nt < 0) return -1;
    x->tlen = (uint8_t)nt;
    s->tpos = 0;
    int nh = read_cards(hand, s->hand, HAND, 1, "hand");
    if (nh < 0) return -1;
    if (nh != HAND) { PyErr_SetString(PyExc_ValueError, "a hand has three slots"); return -1; }
    int nr = read_cards(reserve, s->res, MAX_RESERVE, 0, "reserve");
    if (nr < 0) return -1;
    s->rlen = (uint8_t)nr;
    for (int k = 0; k < nt; k++) if (is_monster(x->talon[k])) { PyErr_SetString(PyExc_ValueError, "a monster in the talon"); return -1; }
    for (int k = 0; k < HAND; k++) if (s->hand[k] >= 0 && is_monster(s->hand[k])) { PyErr_SetString(PyExc_ValueError, "a monster in the hand"); return -1; }
    for (int k = 0; k < nr; k++) if (is_monster(s->res[k])) { PyErr_SetString(PyExc_ValueError, "a monster on the reserve"); return -1; }
    if (outcome < 0 || outcome > STUCK) { PyErr_SetString(PyExc_ValueError, "outcome 0, 1 or 2"); return -1; }
    s->outcome = (uint8_t)outcome;
    return 0;
}

static PyObject *card_tuple(const int8_t *cards, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int k = 0; k < n; k++) PyTuple_SET_ITEM(t, k, PyLong_FromLong(cards[k]));
    return t;
}

/* A state in its Python encoding. */
static PyObject *encode(const Search *x, const State *s) {
    PyObject *piles = PyTuple_New(PILES), *attack = PyTuple_New(PILES);
    if (!piles || !attack) { Py_XDECREF(piles); Py_XDECREF(attack); return NULL; }
    for (int i = 0; i < PILES; i++) {
        PyTuple_SET_ITEM(piles, i, card_tuple(s->pile[i], s->plen[i]));
        PyTuple_SET_ITEM(attack, i, card_tuple(s->att[i], s->alen[i]));
    }
    return Py_BuildValue("(NNNNNi)", piles, attack, card_tuple(x->talon + s->tpos, x->tlen - s->tpos),
                         card_tuple(s->hand, HAND), card_tuple(s->res, s->rlen), s->outcome);
}

static PyObject *py_moves(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "O", &obj)) return NULL;
    State s;
    Search x;
    memset(&x, 0, sizeof x);
    if (parse(obj, &s, &x) < 0) return NULL;
    int m[MAX_MOVES];
    int n = moves(&s, m);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int k = 0; k < n; k++) PyList_SET_ITEM(out, k, PyLong_FromLong(m[k]));
    return out;
}

static PyObject *py_play(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *obj;
    int move;
    if (!PyArg_ParseTuple(args, "Oi", &obj, &move)) return NULL;
    State s, t;
    Search x;
    memset(&x, 0, sizeof x);
    if (parse(obj, &s, &x) < 0) return NULL;
    int m[MAX_MOVES];
    int n = moves(&s, m), legal = 0;
    for (int k = 0; k < n; k++) legal |= m[k] == move;
    if (!legal) { PyErr_Format(PyExc_ValueError, "move %d is not legal here", move); return NULL; }
    play(&x, &s, move, &t);
    return encode(&x, &t);
}

/* The bound of a state, as (slain, spare): the tests compare it with ClearStrategy.bound. */
static PyObject *py_bound(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "O", &obj)) return NULL;
    State s;
    Search x;
    memset(&x, 0, sizeof x);
    if (parse(obj, &s, &x) < 0) return NULL;
    int b = bound_of(&x, &s);
    return Py_BuildValue("(ii)", b / 64, b % 64);
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *obj;
    long long budget;
    unsigned long long seed;
    int share = PROBE_SHARE, alive = 1;
    if (!PyArg_ParseTuple(args, "OLK|ip", &obj, &budget, &seed, &share, &alive)) return NULL;
    if (share < 0 || share > 1000) {
        PyErr_SetString(PyExc_ValueError, "the probing share is per mille: 0 to 1000");
        return NULL;
    }
    State root;
    Search *x = calloc(1, sizeof(Search));
    if (!x) return PyErr_NoMemory();
    if (parse(obj, &root, x) < 0) { free(x); return NULL; }
    x->budget = budget < 0 ? -1 : budget;
    x->rng = seed;
    x->share = share;
    x->alive = alive;
    /* Buckets: about two entries per budgeted node, from 2^10 to 2^20 buckets of four
     * (2^20: 96 MB). */
    uint64_t buckets = 1 << 10;
    while (buckets < (1u << 20) && (budget < 0 || (long long)buckets * 2 < budget)) buckets <<= 1;
    x->table = calloc(buckets * BUCKET, sizeof(Entry));
    if (!x->table) { free(x); return PyErr_NoMemory(); }
    x->mask = buckets - 1;
    int exact;
    Py_BEGIN_ALLOW_THREADS
    dive(x, &root);
    probe(x, &root);
    if (!x->out) {
        x->depth = 0;
        visit(x, &root);
    }
    exact = !x->out;
    Py_END_ALLOW_THREADS
    free(x->table);
    PyObject *line = PyList_New(x->line_len);
    if (!line) { free(x); return NULL; }
    for (int k = 0; k < x->line_len; k++) PyList_SET_ITEM(line, k, PyLong_FromLong(x->line[k]));
    PyObject *result = Py_BuildValue("((ii)OLN)", x->best / 64, x->best % 64,
                                     exact ? Py_True : Py_False, x->nodes, line);
    free(x);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS,
     "search(state, budget, seed) -> ((slain, spare), exact, nodes, line): the best line."},
    {"moves", py_moves, METH_VARARGS, "moves(state) -> the legal moves (card * 8 + target)."},
    {"play", py_play, METH_VARARGS, "play(state, move) -> the state after a legal move."},
    {"bound", py_bound, METH_VARARGS, "bound(state) -> (slain, spare): no line does better."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "Clear the Dungeon's native search (rules/clear/_native.c).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
