# The table of bench/coll_inter/run.sh from its best.tsv ("coll groups impl size value runs"):
# per collective and groups, one row per size with the four implementations, shm_inter over the
# better of Open MPI and MPICH, and shm_inter over Plexus's coll_basic (and, when run, over
# shm_poll: shm_inter with polling flag waits, and over shm_pair: shm_inter without the union of
# both groups on one node, and over shm_lead: Bcast and Reduce through the leaders); then how
# many rows
# shm_inter wins against both.
function num(x) { return x ~ /^[0-9.]+$/ }
function show(x) { if (!num(x)) return "-"; if (x >= 100) return sprintf("%.0f", x); if (x >= 10) return sprintf("%.1f", x); return sprintf("%.2f", x) }
function human(b) { if (b >= 1048576 && b % 1048576 == 0) return (b / 1048576) "M"; if (b >= 1024 && b % 1024 == 0) return (b / 1024) "K"; return b }
{ v[$1, $2, $3, $4] = $5; if ($3 == "shm_poll") polled = 1; if ($3 == "shm_pair") paired = 1; if ($3 == "shm_lead") led = 1; if (!(($1, $2, $4) in seen)) { seen[$1, $2, $4] = 1; rows[++nrows] = $1 SUBSEP $2 SUBSEP $4 } }
END {
    printf "%-10s %6s %6s %12s %12s %12s %12s %10s %10s", "coll", "groups", "size", "shm_inter", "basic", "Open MPI", "MPICH", "shm/best", "shm/basic"
    if (polled) printf " %12s %10s", "shm_poll", "shm/poll"
    if (paired) printf " %12s %10s", "shm_pair", "shm/pair"
    if (led) printf " %12s %10s", "shm_lead", "shm/lead"
    printf "\n"
    for (i = 1; i <= nrows; i++) {
        split(rows[i], f, SUBSEP); c = f[1]; g = f[2]; s = f[3]
        p = v[c, g, "shm_inter", s]; b = v[c, g, "basic", s]; o = v[c, g, "openmpi", s]; m = v[c, g, "mpich", s]
        bo = num(o) ? o : ""; if (num(m) && (bo == "" || m + 0 < bo + 0)) bo = m
        r1 = (num(p) && bo != "" && bo > 0) ? sprintf("%.2f", p / bo) : "-"
        r2 = (num(p) && num(b) && b > 0) ? sprintf("%.2f", p / b) : "-"
        if (r1 != "-") { cmp++; if (r1 + 0 <= 1) won++ }
        printf "%-10s %6s %6s %12s %12s %12s %12s %10s %10s", c, g, c == "barrier" ? "-" : human(s), show(p), show(b), show(o), show(m), r1, r2
        q = v[c, g, "shm_poll", s]
        if (polled) printf " %12s %10s", show(q), (num(p) && num(q) && q > 0) ? sprintf("%.2f", p / q) : "-"
        q = v[c, g, "shm_pair", s]
        if (paired) printf " %12s %10s", show(q), (num(p) && num(q) && q > 0) ? sprintf("%.2f", p / q) : "-"
        q = v[c, g, "shm_lead", s]
        if (led) printf " %12s %10s", show(q), (num(p) && num(q) && q > 0) ? sprintf("%.2f", p / q) : "-"
        printf "\n"
    }
    printf "\nshm_inter at least as fast as the better of Open MPI and MPICH on %d of %d rows\n", won, cmp
}
