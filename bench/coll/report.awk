# Tables of the collective benchmark from run.sh's data file: lines of "coll ranks impl size value
# [lowest highest runs]", the value a number (us) or "timeout"/"failed"; an implementation with no
# line for a collective and rank count was not run there ("skipped"). One table per collective,
# the ratio is Plexus over the better of Open MPI and MPICH; oversubscribed cells carry the range
# of the batches of all runs. Then the issue's orientation rows and a count of the rows Plexus
# wins.
# mode=osu: the data of run.sh --mode osu (one number per run: the average over the ranks), with
# issue 15's osu_bcast rows instead.
# usage: awk -v cores=N [-v mode=osu] -f report.awk DATA

function numeric(v) { return v ~ /^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$/ }

function human(bytes) {
    if (bytes >= 1048576 && bytes % 1048576 == 0) return (bytes / 1048576) "M"
    if (bytes >= 1024 && bytes % 1024 == 0) return (bytes / 1024) "K"
    return bytes
}

function value(c, n, impl, size) {
    if (!((c, n, impl) in ran)) return "skipped"
    if ((c, n, impl, size) in v) return v[c, n, impl, size]
    return "-"
}

function show(x) {
    if (!numeric(x)) return x
    if (x >= 100) return sprintf("%.0f", x)
    if (x >= 10) return sprintf("%.1f", x)
    return x >= 1 ? sprintf("%.2f", x) : sprintf("%.3f", x)
}

# The better (lower) of Open MPI's and MPICH's values, or "".
function best_other(c, n, size,    o, m) {
    o = value(c, n, "openmpi", size); m = value(c, n, "mpich", size)
    if (!numeric(o)) return numeric(m) ? m : ""
    if (!numeric(m)) return o
    return o + 0 < m + 0 ? o : m
}

function ratio(c, n, size, impl,    p, b) {
    p = value(c, n, impl ? impl : "plexus", size); b = best_other(c, n, size)
    if (!numeric(p) || b == "" || b + 0 == 0) return "-"
    return sprintf("%.2f", p / b)
}

function cell(c, n, impl, size,    x) {
    x = show(value(c, n, impl, size))
    if (n > cores && numeric(x) && ((c, n, impl, size) in lo))
        x = x " [" show(lo[c, n, impl, size]) "-" show(hi[c, n, impl, size]) "]"
    return x
}

# With a shm_inter column (Plexus with coll_shm_inter first; the Plexus column is coll_basic
# alone), its value and its ratio to the better of Open MPI and MPICH follow the others.
function table(c,    i, n, size, w) {
    w = 24
    printf "\n%s, us per call (lower is better; Plexus/best < 1: Plexus is faster)\n", title[c]
    printf "%5s %6s %*s %*s %*s %11s", "ranks", "size", w, "Plexus", w, "Open MPI", w, "MPICH",
        "Plexus/best"
    if (has_shm) printf " %*s %9s", w, "Plexus shm_inter", "shm/best"
    printf "\n"
    for (i = 1; i <= nkeys[c]; i++) {
        split(key_at[c, i], f, SUBSEP); n = f[1]; size = f[2]
        printf "%5s %6s %*s %*s %*s %11s", n, c == "barrier" ? "-" : human(size),
            w, cell(c, n, "plexus", size), w, cell(c, n, "openmpi", size),
            w, cell(c, n, "mpich", size), ratio(c, n, size)
        if (has_shm) {
            printf " %*s %9s", w, cell(c, n, "shm_inter", size), ratio(c, n, size, "shm_inter")
            if (ratio(c, n, size, "shm_inter") != "-") {
                shm_compared[c]++; shm_compared_all++
                if (ratio(c, n, size, "shm_inter") + 0 <= 1) { shm_won[c]++; shm_won_all++ }
            }
        }
        printf "\n"
        if (ratio(c, n, size) != "-") {
            compared[c]++; compared_all++
            if (ratio(c, n, size) + 0 <= 1) { won[c]++; won_all++ }
        }
    }
}

# One of the issue's orientation rows: the issue's numbers, this run's, and the verdict.
function orientation(what, c, n, size, issue,    p, b, verdict) {
    if (!((c, n, size) in seen)) return
    p = value(c, n, "plexus", size); b = best_other(c, n, size)
    if (!numeric(p)) verdict = "not measured (Plexus: " p ")"
    else if (b == "") verdict = "not compared (neither Open MPI nor MPICH has a number)"
    else verdict = (p + 0 <= b + 0) ? "met" : "NOT met"
    printf "  %-24s issue: %-22s here: Plexus %s | Open MPI %s | MPICH %s -> target %s\n", what,
        issue, show(p), show(value(c, n, "openmpi", size)), show(value(c, n, "mpich", size)),
        verdict
}

BEGIN {
    ncolls = split("barrier bcast reduce allreduce allgather alltoall", colls, " ")
    title["barrier"] = "MPI_Barrier"
    title["bcast"] = "MPI_Bcast (MPI_CHAR, root 0)"
    title["reduce"] = "MPI_Reduce (MPI_FLOAT, MPI_SUM, root 0)"
    title["allreduce"] = "MPI_Allreduce (MPI_FLOAT, MPI_SUM)"
    title["allgather"] = "MPI_Allgather (MPI_CHAR; size = block per rank)"
    title["alltoall"] = "MPI_Alltoall (MPI_CHAR; size = block per rank pair)"
}
{
    c = $1; n = $2; impl = $3; size = $4
    ran[c, n, impl] = 1
    if (impl == "shm_inter") has_shm = 1
    v[c, n, impl, size] = $5
    if (NF >= 8) { lo[c, n, impl, size] = $6; hi[c, n, impl, size] = $7 }
    if (!((c, n, size) in seen)) {
        seen[c, n, size] = 1
        key_at[c, ++nkeys[c]] = n SUBSEP size
    }
}
function explain_batches() {
    print "Values: up to " cores " ranks (one per core) the fastest batch of all runs; above, the"
    print "median batch (median over the runs) with [fastest-slowest batch]. Each batch: the"
    print "maximum over the ranks of the mean time per call."
}

function explain_osu() {
    print "osu mode (osu_bcast's loop: 10 untimed and 200 timed calls, a barrier after each)."
    print "Values: the average over the ranks of each rank's mean time per call; up to " cores
    print "ranks the fastest run, above the median run with [fastest-slowest run]."
}

# The rows of issue 15 (item 8), measured with osu_bcast: Plexus against Open MPI.
function orientation_osu() {
    print "\nIssue 15's osu_bcast rows (issue: Plexus / Open MPI):"
    orientation("Bcast 1 MB, 8 ranks", "bcast", 8, 1048576, "430-700 / 180-280 us")
    orientation("Bcast 1 MB, 2 ranks", "bcast", 2, 1048576, "32-65 / 81-92 us")
    orientation("Bcast 64 KB, 4 ranks", "bcast", 4, 65536, "level")
}

END {
    if (mode == "osu") explain_osu(); else explain_batches()
    for (k = 1; k <= ncolls; k++) if (nkeys[colls[k]]) table(colls[k])
    if (mode == "osu") orientation_osu()
    else {
        print "\nThe issue's orientation rows, 8 ranks on " cores " cores (issue: Open MPI / MPICH):"
        orientation("Bcast 8 B", "bcast", 8, 8, "11 / 4.1 us")
        orientation("Bcast 64 KB", "bcast", 8, 65536, "22 / 50,557 us")
        orientation("Allreduce 8 B", "allreduce", 8, 8, "21 / 23,981 us")
        orientation("Allreduce 1 MB", "allreduce", 8, 1048576, "1,436 / 93,441 us")
    }
    printf "\nRows where Plexus is at least as fast as the better of Open MPI and MPICH:\n"
    if (!compared_all) print "  none compared (Plexus, or both others, not measured)"
    for (k = 1; k <= ncolls; k++)
        if (compared[colls[k]])
            printf "  %-10s %d of %d\n", colls[k], won[colls[k]], compared[colls[k]]
    if (compared_all) printf "  %-10s %d of %d\n", "all", won_all, compared_all
    if (!has_shm) exit
    printf "\nRows where Plexus shm_inter is at least as fast as the better of Open MPI and MPICH:\n"
    for (k = 1; k <= ncolls; k++)
        if (shm_compared[colls[k]])
            printf "  %-10s %d of %d\n", colls[k], shm_won[colls[k]], shm_compared[colls[k]]
    if (shm_compared_all) printf "  %-10s %d of %d\n", "all", shm_won_all, shm_compared_all
}
