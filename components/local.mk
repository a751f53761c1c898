# The mission's components: one folder each, one plugin (or static archive) each. Their rules are
# generated from configure.ac's PLEXUS_COMPONENT lines (config/component_glue.sh explains the
# folder convention): a component is its folder and that one line, nothing here.
# Components see the SDK headers only, never the core's internals.
COMPONENT_CPPFLAGS = -I$(top_srcdir)/framework/include
COMPONENT_CXXFLAGS = $(AM_CXXFLAGS) -fvisibility=hidden
include config/component_glue.mk
# Plugins export only their descriptor and keep their functions in .symtab (components/plugin.map).
TESTS += tests/build/plugin_symbols.sh
EXTRA_DIST += tests/build/plugin_symbols.sh components/plugin.map

# The generated rules: what one PLEXUS_COMPONENT line makes, and that they are up to date.
TESTS += tests/build/component_glue.sh
EXTRA_DIST += tests/build/component_glue.sh

# No `rep stos` clearing on the per-call paths of libmpi and coll_basic (docs/point-to-point.md).
TESTS += tests/build/no_block_clear.sh
EXTRA_DIST += tests/build/no_block_clear.sh

# In the build tree, every built plugin is linked into the folder beside libplexus, where the
# repository looks first, so that tests and benchmarks run without setting a component path.
BUILD_TREE_PLUGINS = $(abs_top_builddir)/framework/.libs/plexus/plugins-$(PLEXUS_MCA_ABI_MAJOR)
all-local: build-tree-plugins
build-tree-plugins: $(plexus_plugin_LTLIBRARIES)
	@$(MKDIR_P) '$(BUILD_TREE_PLUGINS)'
	@for la in $(plexus_plugin_LTLIBRARIES); do \
	  so=`dirname $$la`/.libs/`basename $$la .la`.so; \
	  test -f "$$so" && ln -sf "$(abs_top_builddir)/$$so" '$(BUILD_TREE_PLUGINS)/'; \
	done; true
.PHONY: build-tree-plugins
