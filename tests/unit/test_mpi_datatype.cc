// Unit tests of the predefined datatypes: each has the size (and for the pairs, the extent) a C
// compiler gives the type it names, the right name and contiguity; types with holes pack and
// unpack without touching the holes; MPI_Get_count and MPI_Get_elements arithmetic.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "mpi/datatype.h"

using namespace plexus::mpi;

extern "C" {
struct plexus_c_type {
    const char *name;
    size_t size;
    size_t extent;
};
extern const plexus_c_type plexus_c_types[];
extern const size_t plexus_c_type_count;
}

namespace {

std::map<std::string, Datatype *> by_name() {
    size_t n = 0;
    const PredefinedType *t = predefined_types(&n);
    std::map<std::string, Datatype *> out;
    for (size_t i = 0; i < n; ++i) out[t[i].name] = t[i].type;
    return out;
}

}  // namespace

TEST(MpiDatatype, SizesAndExtentsMatchTheCTypes) {
    auto types = by_name();
    ASSERT_EQ(types.size(), plexus_c_type_count) << "one C type per predefined datatype";
    for (size_t i = 0; i < plexus_c_type_count; ++i) {
        const plexus_c_type &c = plexus_c_types[i];
        ASSERT_TRUE(types.count(c.name)) << c.name;
        const Datatype *t = types[c.name];
        EXPECT_EQ(t->size, c.size) << c.name;
        EXPECT_EQ(static_cast<size_t>(t->extent), c.extent) << c.name;
        EXPECT_EQ(t->lb, 0) << c.name;
        EXPECT_STREQ(t->name, c.name);
        EXPECT_TRUE(datatype_valid(t)) << c.name;
        EXPECT_TRUE(t->predefined) << c.name;
        EXPECT_EQ(t->combiner, Combiner::Named) << c.name;
        EXPECT_EQ(t->contiguous, t->size == static_cast<size_t>(t->extent)) << c.name;
    }
}

TEST(MpiDatatype, HandlesAreTheExportedObjects) {
    auto types = by_name();
    EXPECT_EQ(types["MPI_INT"], MPI_INT);
    EXPECT_EQ(types["MPI_LONG_LONG_INT"], MPI_LONG_LONG);
    EXPECT_EQ(types["MPI_C_FLOAT_COMPLEX"], MPI_C_COMPLEX);
    EXPECT_FALSE(datatype_valid(MPI_DATATYPE_NULL));
    Datatype garbage{};
    garbage.magic = 0;
    EXPECT_FALSE(datatype_valid(&garbage));
    Datatype uncommitted{};
    uncommitted.committed = false;
    EXPECT_FALSE(datatype_valid(&uncommitted));
}

TEST(MpiDatatype, PairsWithHolesAreNotContiguous) {
    EXPECT_TRUE(MPI_2INT->contiguous);
    EXPECT_TRUE(MPI_FLOAT_INT->contiguous);
    EXPECT_FALSE(MPI_DOUBLE_INT->contiguous);
    EXPECT_FALSE(MPI_SHORT_INT->contiguous);
    EXPECT_FALSE(MPI_LONG_INT->contiguous);
    EXPECT_FALSE(MPI_LONG_DOUBLE_INT->contiguous);
    EXPECT_EQ(MPI_DOUBLE_INT->nblocks, 2);
}

TEST(MpiDatatype, PackAndUnpackLeaveTheHolesAlone) {
    struct DoubleInt {
        double d;
        int i;
    };
    const DoubleInt in[3] = {{1.25, 10}, {2.5, 20}, {3.75, 30}};
    std::vector<char> packed(3 * MPI_DOUBLE_INT->size);
    pack(*MPI_DOUBLE_INT, in, 3, packed.data());
    double d;
    int i;
    std::memcpy(&d, packed.data() + 12, sizeof d);
    std::memcpy(&i, packed.data() + 20, sizeof i);
    EXPECT_EQ(d, 2.5);
    EXPECT_EQ(i, 20);

    DoubleInt out[3];
    std::memset(out, 0xAB, sizeof out);
    unpack(*MPI_DOUBLE_INT, packed.data(), packed.size(), out);
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(out[k].d, in[k].d);
        EXPECT_EQ(out[k].i, in[k].i);
        const auto *hole = reinterpret_cast<const unsigned char *>(&out[k]) + 12;
        for (int b = 0; b < 4; ++b) EXPECT_EQ(hole[b], 0xAB) << "item " << k << " hole byte " << b;
    }
}

TEST(MpiDatatype, UnpackOfATruncatedMessageStopsWhereTheDataEnds) {
    struct ShortInt {
        short s;
        int i;
    };
    const ShortInt in[2] = {{7, 70}, {8, 80}};
    std::vector<char> packed(2 * MPI_SHORT_INT->size);
    pack(*MPI_SHORT_INT, in, 2, packed.data());
    ShortInt out[2] = {{0, 0}, {0, 0}};
    unpack(*MPI_SHORT_INT, packed.data(), MPI_SHORT_INT->size + sizeof(short), out);
    EXPECT_EQ(out[0].s, 7);
    EXPECT_EQ(out[0].i, 70);
    EXPECT_EQ(out[1].s, 8);
    EXPECT_EQ(out[1].i, 0) << "nothing of the second int arrived";
}

TEST(MpiDatatype, CountsAndElements) {
    EXPECT_EQ(count_of(*MPI_INT, 0), 0);
    EXPECT_EQ(count_of(*MPI_INT, 40), 10);
    EXPECT_EQ(count_of(*MPI_INT, 41), MPI_UNDEFINED);
    EXPECT_EQ(elements_of(*MPI_INT, 40), 10);
    EXPECT_EQ(elements_of(*MPI_INT, 42), MPI_UNDEFINED);
    EXPECT_EQ(count_of(*MPI_BYTE, 7), 7);
    // MPI_DOUBLE_INT: 12 bytes of data, two basic elements (a double, then an int).
    EXPECT_EQ(count_of(*MPI_DOUBLE_INT, 36), 3);
    EXPECT_EQ(elements_of(*MPI_DOUBLE_INT, 36), 6);
    EXPECT_EQ(count_of(*MPI_DOUBLE_INT, 44), MPI_UNDEFINED);
    EXPECT_EQ(elements_of(*MPI_DOUBLE_INT, 44), 7) << "three pairs and one more double";
    EXPECT_EQ(elements_of(*MPI_DOUBLE_INT, 40), MPI_UNDEFINED) << "ends inside a double";
    EXPECT_EQ(packed_bytes(MPI_DOUBLE_INT, 5), 60u);
    EXPECT_EQ(packed_bytes(MPI_LONG_DOUBLE_INT, 2), 2 * (sizeof(long double) + sizeof(int)));
}
