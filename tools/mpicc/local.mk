# mpicc, mpicxx and mpic++: compiler wrappers made from wrapper.in. The installed ones point at
# $(includedir) and $(libdir) (with an rpath unless libdir is a system folder); the build-tree
# ones (mpicc-build-tree, mpicxx-build-tree) at the source tree's mpi.h and the build tree's
# libraries, for tests and benchmarks that compile MPI programs before make install.
mpicc_installed_scripts = tools/mpicc/mpicc tools/mpicc/mpicxx tools/mpicc/mpic++
mpicc_build_tree_scripts = tools/mpicc/mpicc-build-tree tools/mpicc/mpicxx-build-tree
bin_SCRIPTS = $(mpicc_installed_scripts)
noinst_SCRIPTS = $(mpicc_build_tree_scripts)
CLEANFILES += $(mpicc_installed_scripts) $(mpicc_build_tree_scripts)
EXTRA_DIST += tools/mpicc/wrapper.in

# A library built with sanitizers needs programs linked with them (their runtime comes first).
if PLEXUS_DEBUG
MPICC_SANITIZER_FLAGS = -fsanitize=address,undefined
else
MPICC_SANITIZER_FLAGS =
endif
MPICC_BUILD_LIBDIRS = $(abs_top_builddir)/framework/mpi/.libs $(abs_top_builddir)/framework/.libs

# $(call) is GNU make only; a shell function keeps this portable. Arguments: output, name,
# language, environment variable, compiler, include folder, library folder, rpath.
mpicc_generate = \
	$(MKDIR_P) tools/mpicc && rm -f $@ $@.tmp && \
	sed -e "s|@NAME@|$$name|g" -e "s|@LANGUAGE@|$$language|g" -e "s|@ENVVAR@|$$envvar|g" \
	    -e "s|@COMPILER@|$$compiler|g" -e "s|@INCDIR@|$$incdir|g" -e "s|@LIBDIR@|$$libdir|g" \
	    -e "s|@RPATH@|$$rpath|g" -e 's|@EXTRA_LDFLAGS@|$(MPICC_SANITIZER_FLAGS)|g' \
	    -e 's|@VERSION@|$(PACKAGE_VERSION)|g' -e 's|@MPI_VERSION@|2.2|g' \
	    $(top_srcdir)/tools/mpicc/wrapper.in >$@.tmp && chmod +x $@.tmp && mv $@.tmp $@

# No rpath for the folders the dynamic linker searches anyway.
mpicc_installed_rpath = \
	multiarch=`$(CC) -print-multiarch 2>/dev/null`; \
	case '$(libdir)' in \
	  /lib | /lib64 | /usr/lib | /usr/lib64 | "/lib/$$multiarch" | "/usr/lib/$$multiarch") rpath= ;; \
	  *) rpath='-Wl,-rpath,$(libdir)' ;; \
	esac

tools/mpicc/mpicc: $(top_srcdir)/tools/mpicc/wrapper.in Makefile
	$(AM_V_GEN)$(mpicc_installed_rpath); name=mpicc language=C envvar=PLEXUS_MPICC compiler='$(CC)' \
	  incdir='$(includedir)' libdir='$(libdir)'; $(mpicc_generate)
tools/mpicc/mpicxx tools/mpicc/mpic++: $(top_srcdir)/tools/mpicc/wrapper.in Makefile
	$(AM_V_GEN)$(mpicc_installed_rpath); name=`basename $@` language=C++ envvar=PLEXUS_MPICXX compiler='$(CXX)' \
	  incdir='$(includedir)' libdir='$(libdir)'; $(mpicc_generate)

tools/mpicc/mpicc-build-tree: $(top_srcdir)/tools/mpicc/wrapper.in Makefile
	$(AM_V_GEN)name=mpicc language=C envvar=PLEXUS_MPICC compiler='$(CC)' \
	  incdir='$(abs_top_srcdir)/framework/mpi/include' libdir='$(abs_top_builddir)/framework/mpi/.libs' \
	  rpath='$(MPICC_BUILD_LIBDIRS:%=-Wl,-rpath,%)'; $(mpicc_generate)
tools/mpicc/mpicxx-build-tree: $(top_srcdir)/tools/mpicc/wrapper.in Makefile
	$(AM_V_GEN)name=mpicxx language=C++ envvar=PLEXUS_MPICXX compiler='$(CXX)' \
	  incdir='$(abs_top_srcdir)/framework/mpi/include' libdir='$(abs_top_builddir)/framework/mpi/.libs' \
	  rpath='$(MPICC_BUILD_LIBDIRS:%=-Wl,-rpath,%)'; $(mpicc_generate)

# The spellings of Open MPI and MPICH (-show, -showme:X, -compile_info, -link_info), and an
# OSU-benchmark-style program (MPI_Alloc_mem) built with the build-tree mpicc and run.
mpicc_tests = tests/cli/mpicc_mpich_spellings.sh tests/cli/mpicc_osu_style.sh
TESTS += $(mpicc_tests)
EXTRA_DIST += $(mpicc_tests)

# After install: the installed wrappers build and link an MPI program (make installcheck).
EXTRA_DIST += tests/install/mpicc_installed.sh
