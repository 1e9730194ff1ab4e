/* SPDX-License-Identifier: MIT */
/* Greatest common divisor, for the periods and classes of the layout. */
#ifndef LID_GCD_H
#define LID_GCD_H

#include <stdint.h>

static inline uint64_t la_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

#endif
