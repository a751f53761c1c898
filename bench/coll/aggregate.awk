# One value per message size from the outputs of the runs of one configuration (one collective,
# implementation and rank count): coll_bench prints "COLL SIZE median_batch lowest_batch
# highest_batch iterations" per size. keep=best (up to one rank per core): the lowest batch of all
# runs, since other load can only slow a batch down. keep=median (oversubscribed): the median over
# the runs of their median batch. Either way the lowest and highest batch of all runs and the
# number of runs follow. A size no run finished gets the reason instead, from run.sh's marks file
# ("REP coll size reason" lines: timeout, after_timeout, failed), or "failed".
# usage: awk -v coll=C -v n=RANKS -v impl=I -v sizes=S1,S2,... -v keep=best|median
#            [-v mode=osu] -f aggregate.awk MARKS RUN_OUTPUT...
# mode=osu (coll_bench --mode osu prints "COLL SIZE avg_over_ranks min max iterations"): the same,
# with one number per run (the average over the ranks), so lowest and highest are the fastest and
# slowest run.
# prints: coll ranks impl size value [lowest highest runs]
NF == 4 && $2 == coll { if (!($3 in why)) why[$3] = $4; next }
$1 == coll && NF >= 6 {
    s = $2
    median[s] = median[s] " " $3
    low = mode == "osu" ? $3 : $4
    high = mode == "osu" ? $3 : $5
    if (!(s in lo) || low + 0 < lo[s]) lo[s] = low + 0
    if (!(s in hi) || high + 0 > hi[s]) hi[s] = high + 0
    runs[s]++
}
END {
    k = split(sizes, want, ",")
    for (i = 1; i <= k; i++) {
        s = want[i]
        if (!(s in runs)) {
            print coll, n, impl, s, (s in why ? why[s] : "failed")
            continue
        }
        if (keep == "best") value = lo[s]
        else {
            m = split(substr(median[s], 2), x, " ")
            for (a = 1; a <= m; a++)
                for (c = a + 1; c <= m; c++)
                    if (x[c] + 0 < x[a] + 0) { t = x[a]; x[a] = x[c]; x[c] = t }
            value = m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
        }
        print coll, n, impl, s, value, lo[s], hi[s], runs[s]
    }
}
