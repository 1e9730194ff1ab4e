// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lid_netline.h"

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* same prefixes and order as ibsim's parse_netconf() */
enum ln_line_kind ln_classify(const char *line, enum ln_type *type)
{
	if (starts(line, "Switch")) {
		*type = LN_SWITCH;
		return LN_LINE_NODE;
	}
	if (starts(line, "Hca") || starts(line, "Ca")) {
		*type = LN_CA;
		return LN_LINE_NODE;
	}
	if (starts(line, "Rt")) {
		*type = LN_ROUTER;
		return LN_LINE_NODE;
	}
	if (starts(line, "switchguid")) {
		*type = LN_SWITCH;
		return LN_LINE_GUIDBASE;
	}
	if (starts(line, "hcaguids") || starts(line, "caguid")) {
		*type = LN_CA;
		return LN_LINE_GUIDBASE;
	}
	if (starts(line, "rtguid")) {
		*type = LN_ROUTER;
		return LN_LINE_GUIDBASE;
	}
	if (starts(line, "module") || starts(line, "include") ||
	    starts(line, "do"))
		return LN_LINE_UNSUPPORTED;
	return LN_LINE_OTHER;
}

/* a number at s, all of it in base (0: C prefixes); NULL if none */
static const char *parse_u64(const char *s, int base, uint64_t *v)
{
	char *end;

	if (!isxdigit((unsigned char)*s))
		return NULL;
	errno = 0;
	*v = strtoull(s, &end, base);
	if (errno || end == s)
		return NULL;
	return end;
}

bool ln_paren_guid(const char **s, uint64_t *guid)
{
	const char *p = *s, *end;

	if (*p != '(')
		return false;
	end = parse_u64(p + 1, 16, guid);
	if (!end || *end != ')')
		return false;
	*s = end + 1;
	return true;
}

/* "name" at s: a malloc'd copy, *s after the closing quote */
static const char *quoted(const char **s, char **out)
{
	const char *open = *s, *close;

	if (*open != '"')
		return "expected a quoted node name";
	close = strchr(open + 1, '"');
	if (!close)
		return "unterminated quoted node name";
	if (close == open + 1)
		return "empty node name";
	if (memchr(open + 1, '#', close - open - 1) ||
	    memchr(open + 1, '@', close - open - 1))
		return "node names with '#' or '@' (ibsim aliases and modules) are not supported";
	*out = strndup(open + 1, close - open - 1);
	if (!*out)
		return "out of memory";
	*s = close + 1;
	return NULL;
}

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

const char *ln_parse_header(const char *line, uint32_t *n_ports, char **name)
{
	const char *s = line, *end;
	uint64_t v;

	while (isalpha((unsigned char)*s))
		s++;
	s = skip_space(s);
	end = isdigit((unsigned char)*s) ? parse_u64(s, 10, &v) : NULL;
	if (!end)
		return "expected the port count after the node type";
	if (v < 1 || v > 254)
		return "port count must be 1..254";
	*n_ports = (uint32_t)v;
	s = skip_space(end);
	return quoted(&s, name);
}

const char *ln_parse_guidbase(const char *line, bool *relative,
			      uint64_t *value, uint64_t *port_guid)
{
	const char *s = line + strcspn(line, "=+"), *end;

	if (!*s)
		return "missing '=' or '+' in GUID base";
	*relative = *s == '+';
	end = parse_u64(skip_space(s + 1), 0, value);
	if (!end)
		return "bad GUID value";
	*port_guid = 0;
	if (*end == '(' && !ln_paren_guid(&end, port_guid))
		return "bad port GUID in parentheses";
	return NULL;
}

const char *ln_parse_cable(const char *line, uint32_t max_port,
			   struct ln_cable *c)
{
	const char *s = line + 1, *end, *err;
	uint64_t v;

	memset(c, 0, sizeof(*c));
	end = isdigit((unsigned char)*s) ? parse_u64(s, 10, &v) : NULL;
	if (!end || *end != ']')
		return "expected [port number]";
	if (v < 1 || v > max_port)
		return "port number out of range for this node";
	c->port = (uint32_t)v;
	s = end + 1;
	if (*s == '(' && !ln_paren_guid(&s, &c->port_guid))
		return "bad port GUID in parentheses";
	s = skip_space(s);
	err = quoted(&s, &c->peer);
	if (err)
		return err;
	c->peer_port = 1;	/* ibsim's default */
	if (*s == '[') {
		end = isdigit((unsigned char)s[1]) ?
		      parse_u64(s + 1, 10, &v) : NULL;
		if (!end || *end != ']' || v < 1 || v > 254) {
			free(c->peer);
			c->peer = NULL;
			return "bad remote port number";
		}
		c->peer_port = (uint32_t)v;
	}
	return NULL;
}
