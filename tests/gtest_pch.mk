# Precompiled GoogleTest and GoogleMock headers. About 110 test files start by parsing gtest.h or
# gmock.h, 1.5-2.5 s of the compiler's time each under the sanitizers (a minute and a half of a
# 2-core build). GCC takes pch/gtest/gtest.h.gch in place of <gtest/gtest.h> when that is the
# file's first include and the file's flags are the ones it was made with; otherwise (a program
# with flags of its own, say) it reads pch/gtest/gtest.h, which includes the real header: nothing
# depends on the .gch. (GCC wants the header beside a .gch it cannot use, as in a file's second
# include of gtest.h through a helper header.)
if HAVE_GTEST
gtest_pch_headers = pch/gtest/gtest.h pch/gmock/gmock.h
gtest_pch = $(gtest_pch_headers:=.gch)
BUILT_SOURCES += $(gtest_pch)
CLEANFILES += $(gtest_pch) $(gtest_pch_headers)
$(gtest_pch_headers): Makefile
	$(AM_V_GEN)$(MKDIR_P) $(@D) && echo '#include "$(GTEST_INCLUDEDIR)/$(@:pch/%=%)"' > $@
pch/gtest/gtest.h.gch: pch/gtest/gtest.h $(GTEST_INCLUDEDIR)/gtest/gtest.h
pch/gmock/gmock.h.gch: pch/gmock/gmock.h $(GTEST_INCLUDEDIR)/gmock/gmock.h
# Written under another name first: a parallel compile never sees half a .gch.
$(gtest_pch):
	$(AM_V_GEN)$(CXXCOMPILE) -x c++-header -o $@.tmp $(@:.gch=) && mv -f $@.tmp $@
endif
