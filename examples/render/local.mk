# examples/render: the main demo, a ray tracer whose master spawns its workers (README.md).
# Included from examples/local.mk. Its tests: tests/examples/render.sh (the demo under plexrun,
# --check against a single-process render) and render_png.sh (the PNG encoder alone).
render_sources = examples/render/render.c examples/render/options.h examples/render/options.c \
	examples/render/master.h examples/render/master.c examples/render/worker.h \
	examples/render/worker.c examples/render/spawn.h examples/render/spawn.c \
	examples/render/finish.h examples/render/finish.c examples/render/check.h \
	examples/render/check.c examples/render/job.h examples/render/job.c \
	examples/render/protocol.h examples/render/tiles.h examples/render/tiles.c \
	examples/render/trace.h examples/render/trace.c examples/render/scene.h \
	examples/render/scene.c examples/render/vec.h examples/render/png_write.h \
	examples/render/png_write.c examples/render/watchdog.h examples/render/watchdog.c
EXTRA_DIST += examples/render/README.md tests/examples/render.sh tests/examples/render_png.sh
# Built by make (scripts/demo.sh runs it under plexrun). -no-install: a real binary, not a
# libtool wrapper, since the master spawns /proc/self/exe.
noinst_PROGRAMS += examples/render/render
examples_render_render_SOURCES = $(render_sources)
examples_render_render_CPPFLAGS = $(MPI_CPPFLAGS)
examples_render_render_LDADD = framework/mpi/libmpi.la -lm
examples_render_render_LDFLAGS = -no-install

check_PROGRAMS += tests/examples/render_png
tests_examples_render_png_SOURCES = tests/examples/render_png.c examples/render/png_write.h \
	examples/render/png_write.c
tests_examples_render_png_CPPFLAGS = -I$(top_srcdir)/examples/render
tests_examples_render_png_LDFLAGS = -no-install
TESTS += tests/examples/render_png.sh tests/examples/render.sh
