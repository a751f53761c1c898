# Jobs under Slurm's srun --mpi=pmix on a private one-node cluster, and what crashed jobs leave
# behind under srun and plexrun (tests/slurm/README.md).
check_PROGRAMS += tests/slurm/crash_at
tests_slurm_crash_at_SOURCES = tests/slurm/crash_at.c
tests_slurm_crash_at_CPPFLAGS = $(mpi_test_includes)
tests_slurm_crash_at_LDADD = $(mpi_test_libs)
tests_slurm_crash_at_LDFLAGS = $(mpi_test_link_flags)
slurm_tests = tests/slurm/srun_jobs.sh tests/slurm/crash_leftovers.sh
if HAVE_PMIX
TESTS += $(slurm_tests)
endif
EXTRA_DIST += $(slurm_tests) tests/slurm/slurm_cluster.sh tests/slurm/README.md tests/lib/slurm_daemons.sh
