/* pam_run.c: a read PAM auth stack run as libpam runs it, over every
 * answer each module could give without the target's password: the states
 * libpam's dispatcher can reach, each once (pam_stack.h). */
#include "etc/pam_stack.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	uint16_t pos;
	int8_t prev_level, impr, status, guessed;
	int8_t saved_impr[HP_PAM_MAX_DEPTH + 1], saved_status[HP_PAM_MAX_DEPTH + 1];
} run_key;

typedef struct {
	run_key k;
	int16_t granted; /* the first pam_handler whose success the path took, or -1 */
	int16_t guessed_at; /* the first pam_handler whose answer was a guess, or -1 */
} run_state;

typedef struct {
	run_key *slot;
	bool *used;
	size_t cap, n;
} key_set;

static uint64_t key_hash(const run_key *k)
{
	const unsigned char *p = (const unsigned char *)k;
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < sizeof *k; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

static void key_insert(key_set *s, const run_key *k)
{
	size_t i = (size_t)key_hash(k) & (s->cap - 1);
	while (s->used[i])
		i = (i + 1) & (s->cap - 1);
	s->used[i] = true;
	s->slot[i] = *k;
}

/* Twice the room, every key placed again: the set starts small, since a
 * real stack has a few dozen states, and grows to what the bound needs. */
static void key_grow(key_set *s)
{
	key_set old = *s;
	s->cap = old.cap ? 2 * old.cap : 256;
	s->slot = hp_xcalloc(s->cap, sizeof *s->slot);
	s->used = hp_xcalloc(s->cap, sizeof *s->used);
	for (size_t i = 0; i < old.cap; i++)
		if (old.used[i])
			key_insert(s, &old.slot[i]);
	free(old.slot);
	free(old.used);
}

/* false when the key was there already */
static bool key_add(key_set *s, const run_key *k)
{
	if (2 * (s->n + 1) > s->cap)
		key_grow(s);
	size_t i = (size_t)key_hash(k) & (s->cap - 1);
	while (s->used[i]) {
		if (memcmp(&s->slot[i], k, sizeof *k) == 0)
			return false;
		i = (i + 1) & (s->cap - 1);
	}
	s->used[i] = true;
	s->slot[i] = *k;
	s->n++;
	return true;
}

/* After a decision at pam_handler p: past the end of its level. */
static size_t level_end(const pam_handler *h, size_t n, size_t p)
{
	size_t j = p;
	while (j + 1 < n && h[j + 1].level >= h[p].level)
		j++;
	return j + 1;
}

static void canon(run_key *k, const pam_handler *h, size_t n)
{
	int lv = k->pos < n ? h[k->pos].level : 0;
	if (k->prev_level < lv)
		lv = k->prev_level;
	for (int i = lv + 1; i <= HP_PAM_MAX_DEPTH; i++)
		k->saved_impr[i] = k->saved_status[i] = 0;
}

hp_tri hp_etc_pam_stack_run(const pam_handler *h, size_t n, const char *service, hp_err *why)
{
	if (n == 0) {
		hp_err_set(why, "%s has no auth line: PAM lets no one in", service);
		return HP_FALSE;
	}
	key_set seen = {0};
	size_t scap = 64, sn = 0;
	run_state *stack = hp_xcalloc(scap, sizeof *stack);
	run_state init;
	memset(&init, 0, sizeof init);
	init.k.status = MUST_FAIL;
	init.k.saved_status[0] = MUST_FAIL;
	init.granted = init.guessed_at = -1;
	stack[sn++] = init;
	int sure_at = -2, guess_at = -2, guess_by = -1;
	bool overflow = false;
	while (sn && sure_at == -2) {
		run_state s = stack[--sn];
		canon(&s.k, h, n);
		if (!key_add(&seen, &s.k))
			continue;
		if (seen.n >= HP_PAM_MAX_STATES) {
			overflow = true;
			break;
		}
		if (s.k.pos >= n) {
			if (s.k.status == R_SUCCESS && s.k.impr == IMPR_POS) {
				if (!s.k.guessed)
					sure_at = s.granted;
				else if (guess_at == -2) {
					guess_at = s.granted;
					guess_by = s.guessed_at;
				}
			}
			continue;
		}
		const pam_handler *m = &h[s.k.pos];
		int L = m->level;
		run_state base = s;
		if (base.k.prev_level < L) {
			base.k.saved_impr[L] = s.k.impr;
			base.k.saved_status[L] = s.k.status;
		}
		base.k.prev_level = (int8_t)L;
		if (m->marker) {
			base.k.pos++;
			stack = hp_xgrow(stack, &scap, sn + 1, sizeof *stack);
			stack[sn++] = base;
			continue;
		}
		for (int r = 0; r < NRET; r++) {
			uint32_t b = BIT(r);
			if (!((m->sure | m->guess) & b) || r == R_INCOMPLETE)
				continue;
			run_state t = base;
			if (!(m->sure & b)) {
				if (!t.k.guessed)
					t.guessed_at = (int16_t)s.k.pos;
				t.k.guessed = 1;
			}
			if (r == R_SUCCESS && t.granted < 0)
				t.granted = (int16_t)s.k.pos; /* the first success on the way */
			int act = m->actions[r];
			size_t next = s.k.pos + 1;
			switch (act) {
			case A_RESET:
				t.k.impr = base.k.saved_impr[L];
				t.k.status = base.k.saved_status[L];
				break;
			case A_OK:
			case A_DONE:
				if (t.k.impr == IMPR_UNDEF ||
				    (t.k.impr == IMPR_POS && t.k.status == R_SUCCESS)) {
					t.k.impr = IMPR_POS;
					t.k.status = (int8_t)r;
				}
				if (t.k.impr == IMPR_POS && act == A_DONE)
					next = level_end(h, n, s.k.pos);
				break;
			case A_BAD:
			case A_DIE:
				if (t.k.impr != IMPR_NEG) {
					t.k.impr = IMPR_NEG;
					t.k.status = (int8_t)(r == R_IGNORE ? MUST_FAIL : r);
				}
				if (act == A_DIE)
					next = level_end(h, n, s.k.pos);
				break;
			case A_IGNORE:
				break;
			default: {
				/* a jump: skip that many modules of this level (a
				 * substack counts as one) */
				size_t j = s.k.pos;
				int left = act > 0 ? act : 0;
				while (j + 1 < n && h[j + 1].level >= L && left > 0) {
					do
						j++;
					while (j + 1 < n && h[j + 1].level > L);
					left--;
				}
				if (left || act <= 0) {
					t.k.impr = IMPR_NEG;
					t.k.status = MUST_FAIL;
				}
				next = j + 1;
				break;
			}
			}
			t.k.pos = (uint16_t)next;
			stack = hp_xgrow(stack, &scap, sn + 1, sizeof *stack);
			stack[sn++] = t;
		}
	}
	free(stack);
	free(seen.slot);
	free(seen.used);
	if (sure_at != -2) {
		if (sure_at >= 0)
			hp_err_set(why, "%s: %s", h[sure_at].where, h[sure_at].what);
		else
			hp_err_set(why, "%s's auth stack succeeds without a password", service);
		return HP_TRUE;
	}
	if (overflow) {
		hp_err_set(why, "%s's auth stack has more than %d ways through it", service,
		           HP_PAM_MAX_STATES);
		return HP_UNKNOWN;
	}
	if (guess_at != -2) {
		int at = guess_by >= 0 ? guess_by : guess_at;
		hp_err_set(why, "%s: %s: it may let %s in without a password", h[at].where,
		           h[at].what, service);
		return HP_UNKNOWN;
	}
	hp_err_set(why, "no way through %s's auth stack succeeds without the password", service);
	return HP_FALSE;
}

