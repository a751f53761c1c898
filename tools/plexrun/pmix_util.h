// Small C++ handles on libpmix's C types: process names, owned values, info arrays.
#pragma once

// pmix_server.h relies on pmix.h having been included first when compiled as C++.
#include <pmix.h>

#include <cstdint>
#include <string>
#include <vector>

namespace plexrun {

struct ProcName {
    std::string nspace;
    uint32_t rank = 0;

    static ProcName from(const pmix_proc_t &p) { return ProcName{p.nspace, p.rank}; }
    pmix_proc_t to_pmix() const;
    bool operator==(const ProcName &) const = default;
};

// A deep copy of a pmix_value_t, freed with the object.
class OwnedValue {
public:
    OwnedValue() = default;
    explicit OwnedValue(const pmix_value_t &v);
    ~OwnedValue();
    OwnedValue(OwnedValue &&other) noexcept;
    OwnedValue &operator=(OwnedValue &&other) noexcept;
    OwnedValue(const OwnedValue &) = delete;
    OwnedValue &operator=(const OwnedValue &) = delete;

    const pmix_value_t &get() const { return value_; }

private:
    pmix_value_t value_{};
};

// Builds an array of pmix_info_t (PMIx_Info_list_*) and owns the result.
class InfoList {
public:
    InfoList();
    ~InfoList();
    InfoList(const InfoList &) = delete;
    InfoList &operator=(const InfoList &) = delete;

    void add_string(const char *key, const std::string &value);
    void add_u32(const char *key, uint32_t value);
    void add_u16(const char *key, uint16_t value);
    void add_rank(const char *key, pmix_rank_t value);
    void add_bool(const char *key, bool value);
    void add_proc(const char *key, const ProcName &value);
    // A node or process map from PMIx_generate_regex / PMIx_generate_ppn.
    void add_regex(const char *key, const char *regex);
    // Moves LIST's entries into one PMIX_DATA_ARRAY value (e.g. PMIX_PROC_DATA).
    void add_array(const char *key, InfoList &list);

    // Converts what was added; valid until the list is destroyed.
    pmix_info_t *data();
    size_t size();

private:
    void add(const char *key, const void *value, pmix_data_type_t type);
    void convert();
    void *list_;
    pmix_data_array_t array_{};
    bool converted_ = false;
};

std::string pmix_error(pmix_status_t status);

// A value in libpmix's own packed form, to travel to another plexrun (same libpmix), and back.
std::vector<char> pack_value(const pmix_value_t &value);
// false for bytes that are not one packed value; *out is then left empty.
bool unpack_value(const std::vector<char> &bytes, pmix_value_t *out);

}  // namespace plexrun
