# Jobs across two hosts made of network namespaces, under a private Slurm cluster
# (tests/multinode/README.md). Root and namespaces needed; skipped with the reason otherwise.
multinode_tests = tests/multinode/srun_across.sh
if HAVE_PMIX
TESTS += $(multinode_tests)
endif
EXTRA_DIST += $(multinode_tests) tests/multinode/netns_cluster.sh tests/multinode/README.md
