// Private to the loader backends: their constructors for the factory, and the error-text helpers
// they share so that every backend reports a failed load in the same words.
#pragma once

#include <memory>
#include <string>

#include "loader.h"

namespace plexus::mca::detail {

std::unique_ptr<Loader> make_ltdl_loader();
// Defined only when PLEXUS_HAVE_BOOST_DLL (loader_boost.cc is not compiled otherwise).
std::unique_ptr<Loader> make_boost_loader();

// The path to hand to dlopen: a bare file name gets "./", otherwise dlopen would search the
// library path for it instead of opening the file the caller named.
std::string file_path_for_dlopen(const std::string &path);

// dlerror()'s text minus its leading "<file>: " (callers report the path themselves), e.g.
// "undefined symbol: x". Kept whole when it does not start with the file.
std::string linker_error_text(const std::string &file, const char *dlerror_text);

// Stores text in *error; the Loader API allows a null error pointer.
void set_error(std::string *error, std::string text);

}  // namespace plexus::mca::detail
