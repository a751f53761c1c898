# One value per message size from the outputs of several runs of one benchmark configuration
# ("size value ..." lines; "#" lines are comments): the best run's (keep=best) or the median
# (keep=median), with the lowest and highest run and the number of runs. A size that no run
# finished gets the reason instead ("timeout", or "failed"), so that the table can say so.
# usage: awk -v bench=B -v n=RANKS -v impl=I -v sizes=S1,S2,... -v why=ok|timeout|failed
#            -v keep=best|median -v lower_is_better=0|1 -f aggregate.awk RUN_OUTPUT...
# prints: bench ranks impl size value [lowest highest runs]
/^[0-9]/ { got[$1] = got[$1] " " $2 }
END {
    k = split(sizes, want, ",")
    for (i = 1; i <= k; i++) {
        s = want[i]
        if (!(s in got)) {
            print bench, n, impl, s, (why == "ok" ? "failed" : why)
            continue
        }
        m = split(substr(got[s], 2), x, " ")
        for (a = 1; a <= m; a++)
            for (c = a + 1; c <= m; c++)
                if (x[c] + 0 < x[a] + 0) { t = x[a]; x[a] = x[c]; x[c] = t }
        if (keep == "best") value = lower_is_better ? x[1] : x[m]
        else value = m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
        print bench, n, impl, s, value, x[1], x[m], m
    }
}
