# plexrun: the launcher for one machine, a PMIx server host (needs libpmix). Installed also
# as mpirun and mpiexec.
if HAVE_PMIX
bin_PROGRAMS += tools/plexrun/plexrun
tools_plexrun_plexrun_SOURCES = \
	tools/plexrun/main.cc \
	tools/plexrun/options.h tools/plexrun/options.cc \
	tools/plexrun/launcher.h tools/plexrun/launcher.cc tools/plexrun/launcher_upcalls.cc \
	tools/plexrun/launcher_remote.cc \
	tools/plexrun/rendezvous.h tools/plexrun/rendezvous.cc tools/plexrun/wire.h \
	tools/plexrun/job.h tools/plexrun/job.cc tools/plexrun/app_spec.h \
	tools/plexrun/failure.h tools/plexrun/failure.cc \
	tools/plexrun/namespace_launcher.h tools/plexrun/namespace_launcher.cc \
	tools/plexrun/namespace_info.h tools/plexrun/namespace_info.cc \
	tools/plexrun/environment.h tools/plexrun/environment.cc \
	tools/plexrun/process.h tools/plexrun/process.cc \
	tools/plexrun/binding.h tools/plexrun/binding.cc \
	tools/plexrun/pmix_server_handle.h tools/plexrun/pmix_server_handle.cc \
	tools/plexrun/upcalls.h tools/plexrun/upcalls.cc \
	tools/plexrun/pmix_util.h tools/plexrun/pmix_util.cc \
	tools/plexrun/publish_store.h tools/plexrun/publish_store.cc \
	tools/plexrun/output_forwarder.h tools/plexrun/output_forwarder.cc \
	tools/plexrun/stdin_forwarder.h tools/plexrun/stdin_forwarder.cc \
	tools/plexrun/event_loop.h tools/plexrun/event_loop.cc \
	tools/plexrun/signals.h tools/plexrun/signals.cc \
	tools/plexrun/job_dir.h tools/plexrun/job_dir.cc \
	tools/plexrun/secret.h tools/plexrun/secret.cc \
	tools/plexrun/unique_fd.h tools/plexrun/unique_fd.cc \
	tools/plexrun/trace.h tools/plexrun/trace.cc
tools_plexrun_plexrun_CPPFLAGS = $(AM_CPPFLAGS) $(PMIX_CFLAGS) $(HWLOC_CFLAGS)
tools_plexrun_plexrun_LDADD = $(PMIX_LIBS) $(HWLOC_LIBS)

# mpirun and mpiexec are symlinks to plexrun; uninstall removes them (make distcheck checks).
plexrun_aliases = mpirun mpiexec
install-exec-hook:
	cd '$(DESTDIR)$(bindir)' && for a in $(plexrun_aliases); do rm -f $$a && ln -s plexrun$(EXEEXT) $$a; done
uninstall-hook:
	cd '$(DESTDIR)$(bindir)' && rm -f $(plexrun_aliases)
endif
EXTRA_DIST += tools/plexrun/README.md
