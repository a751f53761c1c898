// C++ handles on libpmix's C types.
#include "pmix_util.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace plexrun {

pmix_proc_t ProcName::to_pmix() const {
    pmix_proc_t p;
    PMIX_PROC_CONSTRUCT(&p);
    PMIX_LOAD_PROCID(&p, nspace.c_str(), rank);
    return p;
}

OwnedValue::OwnedValue(const pmix_value_t &v) {
    if (PMIx_Value_xfer(&value_, &v) != PMIX_SUCCESS) throw std::runtime_error("PMIx_Value_xfer");
}

OwnedValue::~OwnedValue() {
    PMIx_Value_destruct(&value_);
}

OwnedValue::OwnedValue(OwnedValue &&other) noexcept : value_(other.value_) {
    other.value_ = pmix_value_t{};
}

OwnedValue &OwnedValue::operator=(OwnedValue &&other) noexcept {
    if (this != &other) {
        PMIx_Value_destruct(&value_);
        value_ = std::exchange(other.value_, pmix_value_t{});
    }
    return *this;
}

InfoList::InfoList() : list_(PMIx_Info_list_start()) {}

InfoList::~InfoList() {
    PMIx_Info_list_release(list_);
    if (converted_) PMIx_Data_array_destruct(&array_);
}

void InfoList::add(const char *key, const void *value, pmix_data_type_t type) {
    if (converted_) throw std::logic_error("InfoList: add after data()");
    pmix_status_t rc = PMIx_Info_list_add(list_, key, value, type);
    if (rc != PMIX_SUCCESS)
        throw std::runtime_error(std::string("PMIx_Info_list_add(") + key + ")");
}

void InfoList::add_string(const char *key, const std::string &value) {
    add(key, value.c_str(), PMIX_STRING);
}
void InfoList::add_u32(const char *key, uint32_t value) {
    add(key, &value, PMIX_UINT32);
}
void InfoList::add_u16(const char *key, uint16_t value) {
    add(key, &value, PMIX_UINT16);
}
void InfoList::add_rank(const char *key, pmix_rank_t value) {
    add(key, &value, PMIX_PROC_RANK);
}
void InfoList::add_bool(const char *key, bool value) {
    add(key, &value, PMIX_BOOL);
}

void InfoList::add_proc(const char *key, const ProcName &value) {
    pmix_proc_t p = value.to_pmix();
    add(key, &p, PMIX_PROC);
}

void InfoList::add_regex(const char *key, const char *regex) {
    add(key, regex, PMIX_REGEX);
}

void InfoList::add_array(const char *key, InfoList &list) {
    list.convert();
    add(key, &list.array_, PMIX_DATA_ARRAY);  // copied: LIST keeps its own
}

void InfoList::convert() {
    if (converted_) return;
    array_.type = PMIX_INFO;  // an empty array; libpmix allocates the elements
    array_.size = 0;
    array_.array = nullptr;
    if (PMIx_Info_list_convert(list_, &array_) != PMIX_SUCCESS)
        throw std::runtime_error("PMIx_Info_list_convert");
    converted_ = true;
}

pmix_info_t *InfoList::data() {
    convert();
    return static_cast<pmix_info_t *>(array_.array);
}

size_t InfoList::size() {
    convert();
    return array_.size;
}

std::vector<char> pack_value(const pmix_value_t &value) {
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    if (PMIx_Data_pack(nullptr, &buf, const_cast<pmix_value_t *>(&value), 1, PMIX_VALUE) != PMIX_SUCCESS) {
        PMIX_DATA_BUFFER_DESTRUCT(&buf);
        throw std::runtime_error("PMIx_Data_pack of a published value");
    }
    pmix_byte_object_t bo;
    PMIX_BYTE_OBJECT_CONSTRUCT(&bo);
    PMIx_Data_unload(&buf, &bo);
    std::vector<char> out(bo.bytes, bo.bytes + bo.size);
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    return out;
}

bool unpack_value(const std::vector<char> &bytes, pmix_value_t *out) {
    PMIX_VALUE_CONSTRUCT(out);
    if (bytes.empty()) return false;
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    pmix_byte_object_t bo;
    bo.bytes = static_cast<char *>(std::malloc(bytes.size()));  // the buffer takes it over
    if (!bo.bytes) return false;
    std::memcpy(bo.bytes, bytes.data(), bytes.size());
    bo.size = bytes.size();
    PMIx_Data_load(&buf, &bo);
    int32_t count = 1;
    pmix_status_t rc = PMIx_Data_unpack(nullptr, &buf, out, &count, PMIX_VALUE);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    if (rc != PMIX_SUCCESS || count != 1) {
        PMIX_VALUE_DESTRUCT(out);
        PMIX_VALUE_CONSTRUCT(out);
        return false;
    }
    return true;
}

std::string pmix_error(pmix_status_t status) {
    return std::string(PMIx_Error_string(status)) + " (" + std::to_string(status) + ")";
}

}  // namespace plexrun
