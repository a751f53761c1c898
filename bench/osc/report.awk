# Tables of bench/osc/run.sh from its data file ("TEST SIZE CONFIG VALUE RUNS"): one table per
# test, rows by size (bytes; ghost tests: doubles per neighbour), a column per configuration and
# auto / the better of Open MPI and MPICH (latency and ghost: below or at 1 is as fast or faster;
# bandwidth: at or above 1). Then the issue's targets and the count of rows where auto is at least
# as fast as the better of the two.
# usage: awk -v configs="plexus-auto ... openmpi mpich" -f report.awk DATA

function numeric(v) { return v ~ /^[0-9]+([.][0-9]*)?([eE][+-]?[0-9]+)?$/ }
function human(n) {
    if (n >= 1048576 && n % 1048576 == 0) return (n / 1048576) "M"
    if (n >= 1024 && n % 1024 == 0) return (n / 1024) "K"
    return n
}
function show(x) {
    if (!numeric(x)) return x
    if (x >= 100) return sprintf("%.0f", x)
    if (x >= 10) return sprintf("%.1f", x)
    return x >= 1 ? sprintf("%.2f", x) : sprintf("%.3f", x)
}
function header(c) {
    if (c ~ /^plexus-/) return substr(c, 8)
    return c == "openmpi" ? "Open MPI" : c == "mpich" ? "MPICH" : c
}
function higher_better(t) { return t ~ /_bw_/ }
# The better of Open MPI's and MPICH's values for (t, s), or "".
function best_other(t, s,    o, m) {
    o = ((t, s, "openmpi") in v) ? v[t, s, "openmpi"] : ""
    m = ((t, s, "mpich") in v) ? v[t, s, "mpich"] : ""
    if (!numeric(o)) return numeric(m) ? m : ""
    if (!numeric(m)) return o
    if (higher_better(t)) return o + 0 > m + 0 ? o : m
    return o + 0 < m + 0 ? o : m
}
function auto_wins(t, s,    a, b) {
    a = ((t, s, "plexus-auto") in v) ? v[t, s, "plexus-auto"] : ""
    b = best_other(t, s)
    if (!numeric(a) || b == "") return -1
    return higher_better(t) ? (a + 0 >= b + 0) : (a + 0 <= b + 0)
}
function what(t) {
    if (t ~ /^ghost_buf/) return "us per iteration, one put per neighbour buffer; size: doubles per neighbour (2 neighbours)"
    if (t ~ /^ghost_double/) return "us per iteration, one put per double; size: doubles per neighbour (2 neighbours: 2 x size puts)"
    if (t ~ /_bw_/) return "MB/s, 32 operations per epoch, rank 0 to rank 1; size: bytes per operation"
    if (t ~ /_lock$/) return "us per lock + operation + unlock, rank 0 to rank 1 (which waits in MPI_Barrier); size: bytes"
    return "us per operation and its synchronisation, ranks 0 and 1 in turn; size: bytes"
}

{
    v[$1, $2, $3] = $4
    if (!($1 in seen_t)) { seen_t[$1] = 1; tests[++nt] = $1 }
    if (!(($1, $2) in seen_s)) { seen_s[$1, $2] = 1; sizes[$1, ++ns[$1]] = $2 }
}
END {
    nc = split(configs, cl, " ")
    has_auto = 0
    for (c = 1; c <= nc; c++) if (cl[c] == "plexus-auto") has_auto = 1
    for (i = 1; i <= nt; i++) {
        t = tests[i]
        printf "%s (%s)\n", t, what(t)
        line = sprintf("%8s", "size")
        for (c = 1; c <= nc; c++) line = line sprintf(" | %9s", header(cl[c]))
        if (has_auto) line = line sprintf(" | %9s", "auto/best")
        print line
        for (j = 1; j <= ns[t]; j++) {
            s = sizes[t, j]
            line = sprintf("%8s", human(s))
            for (c = 1; c <= nc; c++) line = line sprintf(" | %9s", ((t, s, cl[c]) in v) ? show(v[t, s, cl[c]]) : "-")
            if (has_auto) {
                b = best_other(t, s); a = ((t, s, "plexus-auto") in v) ? v[t, s, "plexus-auto"] : ""
                r = (numeric(a) && numeric(b) && b > 0) ? sprintf("%.2f", a / b) : "-"
                line = line sprintf(" | %9s", r)
                w = auto_wins(t, s)
                if (w >= 0) { rows++; wins += w; if (!w) lost = lost " " t ":" human(s) }
            }
            print line
        }
        print ""
    }
    if (!has_auto) exit
    print "Targets (issue 18):"
    target("ghost_double_fence", 512, 100, "per-double ghost-cell iteration, fence (2 x 512 = 1024 one-double puts per rank), at most 100 us")
    target("put_lat_fence", 8, 1.0, "8-byte put with fence, at most 1.0 us")
    target("get_lat_fence", 8, 1.0, "8-byte get with fence, at most 1.0 us")
    printf "auto at least as fast as the better of Open MPI and MPICH on %d of %d rows%s\n", wins, rows,
        (lost == "" ? "" : "; not on:" lost)
}
function target(t, s, limit, text,    a) {
    a = ((t, s, "plexus-auto") in v) ? v[t, s, "plexus-auto"] : "-"
    printf "  %s: auto %s us (Open MPI %s, MPICH %s): %s\n", text, show(a),
        ((t, s, "openmpi") in v) ? show(v[t, s, "openmpi"]) : "-", ((t, s, "mpich") in v) ? show(v[t, s, "mpich"]) : "-",
        numeric(a) ? (a + 0 <= limit ? "met" : "NOT met") : "not measured"
}
