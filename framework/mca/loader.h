// Opening a component's shared object and finding its descriptor, behind one interface with two
// backends (libltdl, Boost.DLL) chosen by the parameter mca_base_loader.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace plexus::mca {

// An opened shared object; closing it is the destructor's job.
class LoadedObject {
public:
    virtual ~LoadedObject() = default;
    // The address of an exported symbol, or nullptr.
    virtual const void *symbol(const std::string &name) const = 0;
};

class Loader {
public:
    virtual ~Loader() = default;
    virtual const char *name() const = 0;  // "ltdl", "boost"
    // Opens path so that every undefined symbol is resolved now (a missing one fails here, not at
    // its first call) and nothing it exports leaks into the global namespace. On failure returns
    // nullptr and sets *error to the dynamic linker's own words, e.g.
    //   "undefined symbol: plexus_missing_function".
    virtual std::unique_ptr<LoadedObject> open(const std::string &path, std::string *error) = 0;
};

// The backends this build has, by name ("ltdl" always; "boost" when Boost.DLL was found).
std::vector<std::string> loader_names();
// nullptr when name is not one of loader_names().
std::unique_ptr<Loader> make_loader(std::string_view name);

}  // namespace plexus::mca
