// SPDX-License-Identifier: MIT
/*
 * Dragonfly (Kim, Dally, Scott, Abts 2008): groups of switches linked
 * all to all, the groups linked by global links (see topo.h for the
 * layout and the arrangement of the global links).
 */
#include <stdio.h>

#include "topo_build.h"

struct df {
	unsigned a, h, p, g;	/* switches a group, global links a switch,
				 * hosts a switch, groups */
};

static unsigned df_sw(const struct df *f, unsigned grp, unsigned i)
{
	return grp * f->a + i;
}

/* Global link between global port k1 of group g1 and k2 of group g2. */
static void df_global(struct topo *t, const struct df *f, unsigned g1,
		      unsigned k1, unsigned g2, unsigned k2)
{
	unsigned first = f->p + f->a - 1;

	topo_build_link_at(t, df_sw(f, g1, k1 / f->h), first + k1 % f->h + 1,
			   df_sw(f, g2, k2 / f->h), first + k2 % f->h + 1);
}

/*
 * Full rounds: round r gives every group pair one link, group g's port
 * r * (G - 1) + d - 1 to group g + d (mod G), d = 1 .. G - 1, whose port
 * for the way back (offset G - d) is r * (G - 1) + G - d - 1.  With
 * G = A * H + 1 that is one round: port k to group g + k + 1.
 */
static void df_rounds(struct topo *t, const struct df *f, unsigned rounds)
{
	unsigned r, grp, d, base;

	for (r = 0; r < rounds; r++) {
		base = r * (f->g - 1);
		for (grp = 0; grp < f->g; grp++)
			for (d = 1; d < f->g; d++) {
				/* each pair once, from its lower offset */
				if (d > f->g - d ||
				    (d == f->g - d && grp >= f->g / 2))
					continue;
				df_global(t, f, grp, base + d - 1,
					  (grp + d) % f->g,
					  base + f->g - d - 1);
			}
	}
}

/*
 * The last q = A * H mod (G - 1) ports of every group (0 < q < G - 1):
 * ports base + 2j and base + 2j + 1 go to offsets j + 1 and G - j - 1
 * (j < q / 2), so that each link's two ends are both on these ports.
 * When q is odd, the last one goes to the opposite group (offset G / 2)
 * if G is even; if G is odd, along offset s = (G - 1) / 2 (coprime to
 * G): group 2i*s is linked to group (2i+1)*s (mod G), i = 0 .. (G-3)/2,
 * and group (G-1)*s mod G keeps that port free.
 */
static void df_rest(struct topo *t, const struct df *f, unsigned base,
		    unsigned q)
{
	unsigned grp, j, i, s, last = base + q - 1;

	for (j = 0; j < q / 2; j++)
		for (grp = 0; grp < f->g; grp++)
			df_global(t, f, grp, base + 2 * j,
				  (grp + j + 1) % f->g, base + 2 * j + 1);
	if (q % 2 == 0)
		return;
	if (f->g % 2 == 0) {
		for (grp = 0; grp < f->g / 2; grp++)
			df_global(t, f, grp, last, grp + f->g / 2, last);
		return;
	}
	s = (f->g - 1) / 2;
	for (i = 0; 2 * i + 2 < f->g; i++)
		df_global(t, f, (unsigned)(2ull * i * s % f->g), last,
			  (unsigned)((2ull * i + 1) * s % f->g), last);
}

static int df_names(struct topo *t, const struct df *f)
{
	char prefix[32];
	unsigned grp, i;

	for (grp = 0; grp < f->g; grp++) {
		snprintf(prefix, sizeof(prefix), "df%u-s", grp);
		for (i = 0; i < f->a; i++)
			if (topo_build_name_sw(t, df_sw(f, grp, i), prefix, i))
				return -1;
	}
	return 0;
}

/* all to all inside a group: switch j on port P + j + 1 (P + j if j > i) */
static void df_local(struct topo *t, const struct df *f)
{
	unsigned grp, i, j;

	for (grp = 0; grp < f->g; grp++)
		for (i = 0; i < f->a; i++)
			for (j = i + 1; j < f->a; j++)
				topo_build_link_at(t, df_sw(f, grp, i),
						   f->p + j, df_sw(f, grp, j),
						   f->p + i + 1);
}

int topo_dragonfly(struct topo *t, unsigned a, unsigned h, unsigned p,
		   unsigned g)
{
	unsigned long long n_sw, ah = (unsigned long long)a * h, n_links;
	struct df f = { a, h, p, g ? g : (unsigned)(ah + 1) };
	unsigned s;

	n_sw = (unsigned long long)a * f.g;
	if (!a || !h || ah + 1 > TOPO_MAX_SWITCHES || f.g < 2 ||
	    f.g > ah + 1 || n_sw > TOPO_MAX_SWITCHES ||
	    (unsigned long long)p + a - 1 + h > TOPO_MAX_PORTS)
		return topo_build_reject(t);
	n_links = n_sw * (a - 1) / 2 + n_sw * h / 2;
	if (topo_build_start(t, (unsigned)n_sw, "df-s", (unsigned)n_links,
			     (unsigned)n_sw * p) ||
	    df_names(t, &f) || topo_build_hosts(t, (unsigned)n_sw, p))
		return topo_build_fail(t);
	df_local(t, &f);
	df_rounds(t, &f, (unsigned)(ah / (f.g - 1)));
	if (ah % (f.g - 1))
		df_rest(t, &f, (unsigned)(ah / (f.g - 1) * (f.g - 1)),
			(unsigned)(ah % (f.g - 1)));
	/* every switch declares its global ports, even a free one */
	for (s = 0; s < n_sw; s++)
		t->sw_ports[s] = p + a - 1 + h;
	return topo_build_finish(t);
}
