"""A VCD's declarations and value changes, for the tests that read a waveform back.

The testbenches' VCD writer puts one declaration per line ("$scope module NAME $end",
"$var wire WIDTH CODE NAME [W-1:0] $end", "$upscope $end"), then "$enddefinitions $end", then
timestamps ("#T") and value changes ("b<bits> CODE", "<0|1|x>CODE").

  declarations(path)       every $var, in order, as Var(scope, code, width, name)
  read_declarations(f)     the same from an open file, left at the first line after the header
  signal_names(path)       the full names as a .gtkw lists them: "tb.sm0.issue.warp[6:0]" (a
                           vector) or "tb.sm0.fetch.fetched" (one bit)
  series(path, key_of)     {key: ([times], [values])} for the variables key_of(var) gives a key
                           (None: not wanted); x and z bits read as 0, a scalar's x is left out
"""
from collections import namedtuple

Var = namedtuple("Var", "scope code width name")  # scope: the tuple of enclosing scope names


def full_name(v):
    """tb.sm0.issue.stall"""
    return ".".join(v.scope + (v.name,))


def read_declarations(f):
    out, scope = [], []
    for line in f:
        t = line.split()
        if not t:
            continue
        if t[0] == "$scope":
            scope.append(t[2])
        elif t[0] == "$upscope":
            scope.pop()
        elif t[0] == "$var":
            out.append(Var(tuple(scope), t[3], int(t[2]), t[4]))
        elif t[0] == "$enddefinitions":
            break
    return out


def declarations(path):
    with open(path, errors="replace") as f:
        return read_declarations(f)


def signal_names(path):
    return {full_name(v) + ("[%d:0]" % (v.width - 1) if v.width > 1 else "") for v in declarations(path)}


def series(path, key_of):
    out = {}
    with open(path, errors="replace") as f:
        keys = {}
        for v in read_declarations(f):
            k = key_of(v)
            if k is not None:
                keys.setdefault(v.code, []).append(k)
        t = 0
        for line in f:
            c = line[:1]
            if c == "#":
                t = int(line[1:])
                continue
            if c == "b":
                w = line.split()
                if len(w) != 2 or w[1] not in keys:
                    continue
                code, value = w[1], int(w[0][1:].replace("x", "0").replace("z", "0"), 2)
            elif c in ("0", "1"):
                code, value = line[1:].strip(), int(c)
                if code not in keys:
                    continue
            else:
                continue
            for k in keys[code]:
                s = out.setdefault(k, ([], []))
                s[0].append(t)
                s[1].append(value)
    return out
