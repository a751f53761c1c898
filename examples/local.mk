# Examples: shipped in the tarball, never built by the tree (they build against the installed SDK).
EXTRA_DIST += examples/component-template/Makefile examples/component-template/template_component.cc \
	examples/component-template/README.md
