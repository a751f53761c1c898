// Unit tests of attribute caching (framework/mpi/attributes): the key registry (keys never
// reused, alive while a handle or an attribute refers to them), set/replace/delete with their
// delete callbacks counted, attributes_copy (flag decides, a failing callback's code comes back
// and the copies made so far are deleted again), attributes_delete_all (latest first, each
// once), the predefined callbacks and the predefined attributes without a runtime; datatypes as
// hosts (dup_type, free_type: callbacks counted, the last handle takes the attributes, keys of
// one kind unseen by another).
#include <gtest/gtest.h>

#include <vector>

#include "mpi/attributes/attribute_cache.h"
#include "mpi/attributes/attribute_hooks.h"
#include "mpi/attributes/keyvals.h"
#include "mpi/attributes/predefined_attributes.h"
#include "mpi/attributes/type_attributes.h"
#include "mpi/datatype/construct.h"

using namespace plexus::mpi;

namespace {

struct Counts {
    int copies = 0;
    int deletes = 0;
    int fail_copy = MPI_SUCCESS;
    int fail_delete = MPI_SUCCESS;
    std::vector<void *> deleted;  // in the order the callbacks ran
};

int copy_plus_one(MPI_Comm, int, void *extra, void *in, void *out, int *flag) {
    auto *c = static_cast<Counts *>(extra);
    ++c->copies;
    if (c->fail_copy) return c->fail_copy;
    *static_cast<void **>(out) = static_cast<char *>(in) + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

int count_delete(MPI_Comm, int, void *value, void *extra) {
    auto *c = static_cast<Counts *>(extra);
    ++c->deletes;
    c->deleted.push_back(value);
    return c->fail_delete;
}

void *v(uintptr_t i) { return reinterpret_cast<void *>(i * 16); }

}  // namespace

TEST(MpiKeyvals, KeysAreNeverReusedAndLiveWhileReferenced) {
    KeyvalRegistry r;
    const int a = r.create(nullptr, nullptr, nullptr);
    const int b = r.create(nullptr, nullptr, nullptr);
    EXPECT_GT(a, kLastPredefinedKeyval);
    EXPECT_NE(a, b);
    EXPECT_EQ(r.find(MPI_TAG_UB), nullptr) << "predefined keys are not in the registry";
    r.retain(a);  // an attribute
    EXPECT_TRUE(r.free_handle(a));
    EXPECT_FALSE(r.free_handle(a)) << "a second free";
    ASSERT_NE(r.find(a), nullptr) << "the attribute keeps it alive";
    EXPECT_TRUE(r.find(a)->freed);
    r.release(a);
    EXPECT_EQ(r.find(a), nullptr);
    EXPECT_TRUE(r.free_handle(b));
    EXPECT_EQ(r.find(b), nullptr);
    EXPECT_EQ(r.live(), 0u);
    EXPECT_GT(r.create(nullptr, nullptr, nullptr), b) << "numbers are not reused";
}

TEST(MpiAttributes, SetReplaceDeleteRunDeleteCallbacksOnce) {
    Counts c;
    const int k = keyvals().create(copy_plus_one, count_delete, &c);
    Comm comm;
    void *got = nullptr;
    EXPECT_FALSE(attribute_get(&comm, k, &got));
    EXPECT_EQ(attribute_set(&comm, k, v(1)), MPI_SUCCESS);
    ASSERT_TRUE(attribute_get(&comm, k, &got));
    EXPECT_EQ(got, v(1));
    EXPECT_EQ(attribute_set(&comm, k, v(2)), MPI_SUCCESS);
    EXPECT_EQ(c.deleted, std::vector<void *>{v(1)});
    EXPECT_EQ(attribute_delete(&comm, k), MPI_SUCCESS);
    EXPECT_EQ(c.deleted, (std::vector<void *>{v(1), v(2)}));
    EXPECT_EQ(attribute_delete(&comm, k), -1) << "nothing left to delete";
    EXPECT_EQ(c.copies, 0);
    keyvals().free_handle(k);
    EXPECT_EQ(keyvals().find(k), nullptr) << "no attribute holds the key any more";
}

TEST(MpiAttributes, AFailingDeleteCallbackKeepsTheValue) {
    Counts c;
    const int k = keyvals().create(copy_plus_one, count_delete, &c);
    Comm comm;
    ASSERT_EQ(attribute_set(&comm, k, v(1)), MPI_SUCCESS);
    c.fail_delete = MPI_ERR_OTHER;
    EXPECT_EQ(attribute_set(&comm, k, v(2)), MPI_ERR_OTHER);
    void *got = nullptr;
    ASSERT_TRUE(attribute_get(&comm, k, &got));
    EXPECT_EQ(got, v(1));
    EXPECT_EQ(attribute_delete(&comm, k), MPI_ERR_OTHER);
    ASSERT_TRUE(attribute_get(&comm, k, &got));
    c.fail_delete = MPI_SUCCESS;
    EXPECT_EQ(attribute_delete(&comm, k), MPI_SUCCESS);
    EXPECT_EQ(c.deletes, 3);
    keyvals().free_handle(k);
}

TEST(MpiAttributes, CopyFollowsTheFlagAndDeleteAllGoesLatestFirst) {
    Counts user, dup, none;
    const int ku = keyvals().create(copy_plus_one, count_delete, &user);
    const int kd = keyvals().create(MPI_COMM_DUP_FN, count_delete, &dup);
    const int kn = keyvals().create(MPI_COMM_NULL_COPY_FN, count_delete, &none);
    const int k0 = keyvals().create(nullptr, nullptr, nullptr);  // NULL callbacks: no copy, no action
    Comm from, to;
    ASSERT_EQ(attribute_set(&from, ku, v(1)), MPI_SUCCESS);
    ASSERT_EQ(attribute_set(&from, kd, v(2)), MPI_SUCCESS);
    ASSERT_EQ(attribute_set(&from, kn, v(3)), MPI_SUCCESS);
    ASSERT_EQ(attribute_set(&from, k0, v(4)), MPI_SUCCESS);
    ASSERT_EQ(attributes_copy(&from, &to), MPI_SUCCESS);
    EXPECT_EQ(user.copies, 1);
    ASSERT_EQ(to.attributes.entries.size(), 2u);
    EXPECT_EQ(to.attributes.entries[0].keyval, ku);
    EXPECT_EQ(to.attributes.entries[0].value, static_cast<char *>(v(1)) + 1);
    EXPECT_EQ(to.attributes.entries[1].keyval, kd);
    EXPECT_EQ(to.attributes.entries[1].value, v(2));

    // The keys go before their attributes: those still work.
    for (int k : {ku, kd, kn, k0}) keyvals().free_handle(k);
    ASSERT_NE(keyvals().find(ku), nullptr);
    EXPECT_EQ(attributes_delete_all(&to), MPI_SUCCESS);
    EXPECT_TRUE(to.attributes.entries.empty());
    EXPECT_EQ(user.deleted, std::vector<void *>{static_cast<char *>(v(1)) + 1});
    EXPECT_EQ(dup.deleted, std::vector<void *>{v(2)});
    EXPECT_EQ(attributes_delete_all(&to), MPI_SUCCESS) << "nothing runs twice";
    EXPECT_EQ(user.deletes + dup.deletes, 2);
    EXPECT_EQ(attributes_delete_all(&from), MPI_SUCCESS);
    EXPECT_EQ(user.deletes + dup.deletes + none.deletes, 5);
    EXPECT_EQ(keyvals().find(ku), nullptr) << "the last attribute took the freed key with it";
    EXPECT_EQ(keyvals().find(k0), nullptr);
}

TEST(MpiAttributes, AFailingCopyReturnsItsCodeAndUndoesTheCopies) {
    Counts good, bad;
    bad.fail_copy = 1234567;
    const int kg = keyvals().create(copy_plus_one, count_delete, &good);
    const int kb = keyvals().create(copy_plus_one, count_delete, &bad);
    Comm from, to;
    ASSERT_EQ(attribute_set(&from, kg, v(1)), MPI_SUCCESS);
    ASSERT_EQ(attribute_set(&from, kb, v(2)), MPI_SUCCESS);
    EXPECT_EQ(attributes_copy(&from, &to), 1234567);
    EXPECT_TRUE(to.attributes.entries.empty());
    EXPECT_EQ(good.copies, 1);
    EXPECT_EQ(good.deleted, std::vector<void *>{static_cast<char *>(v(1)) + 1}) << "the copy made is deleted";
    EXPECT_EQ(bad.deletes, 0);
    EXPECT_EQ(attributes_delete_all(&from), MPI_SUCCESS);
    keyvals().free_handle(kg);
    keyvals().free_handle(kb);
}

TEST(MpiAttributes, DeleteAllReportsTheFirstFailureButDeletesEverything) {
    Counts a, b;
    a.fail_delete = 11;
    b.fail_delete = 22;
    const int ka = keyvals().create(nullptr, count_delete, &a);
    const int kb = keyvals().create(nullptr, count_delete, &b);
    Comm comm;
    ASSERT_EQ(attribute_set(&comm, ka, v(1)), MPI_SUCCESS);
    ASSERT_EQ(attribute_set(&comm, kb, v(2)), MPI_SUCCESS);
    EXPECT_EQ(attributes_delete_all(&comm), 22) << "latest first";
    EXPECT_EQ(a.deletes, 1);
    EXPECT_EQ(b.deletes, 1);
    EXPECT_TRUE(comm.attributes.entries.empty());
    keyvals().free_handle(ka);
    keyvals().free_handle(kb);
}

// A delete callback that deletes another attribute of the same communicator (it may call MPI).
struct Reentry {
    Comm *comm;
    int other;
    int calls = 0;
};
int delete_other(MPI_Comm, int, void *, void *extra) {
    auto *r = static_cast<Reentry *>(extra);
    ++r->calls;
    attribute_delete(r->comm, r->other);
    return MPI_SUCCESS;
}

TEST(MpiAttributes, CallbacksMayChangeTheStoreWhileItIsDeleted) {
    Comm comm;
    Counts c;
    Reentry r{&comm, keyvals().create(nullptr, count_delete, &c)};
    const int k = keyvals().create(nullptr, delete_other, &r);
    ASSERT_EQ(attribute_set(&comm, r.other, v(1)), MPI_SUCCESS);
    ASSERT_EQ(attribute_set(&comm, k, v(2)), MPI_SUCCESS);
    EXPECT_EQ(attributes_delete_all(&comm), MPI_SUCCESS);
    EXPECT_EQ(r.calls, 1);
    EXPECT_EQ(c.deletes, 1);
    EXPECT_TRUE(comm.attributes.entries.empty());
    keyvals().free_handle(k);
    keyvals().free_handle(r.other);
}

TEST(MpiAttributes, PredefinedCallbacksAndValues) {
    void *out = nullptr;
    int flag = -1;
    EXPECT_EQ(MPI_COMM_DUP_FN(nullptr, 0, nullptr, v(3), &out, &flag), MPI_SUCCESS);
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(out, v(3));
    EXPECT_EQ(MPI_COMM_NULL_COPY_FN(nullptr, 0, nullptr, v(3), &out, &flag), MPI_SUCCESS);
    EXPECT_EQ(flag, 0);
    EXPECT_EQ(MPI_COMM_NULL_DELETE_FN(nullptr, 0, v(3), nullptr), MPI_SUCCESS);

    ASSERT_NE(predefined_attribute(MPI_TAG_UB), nullptr);
    EXPECT_GE(*predefined_attribute(MPI_TAG_UB), 32767);
    EXPECT_EQ(*predefined_attribute(MPI_HOST), MPI_PROC_NULL);
    EXPECT_EQ(*predefined_attribute(MPI_IO), MPI_ANY_SOURCE);
    EXPECT_EQ(*predefined_attribute(MPI_WTIME_IS_GLOBAL), 0);
    EXPECT_EQ(predefined_attribute(MPI_UNIVERSE_SIZE), nullptr) << "no runtime: nobody said";
    EXPECT_EQ(predefined_attribute(MPI_APPNUM), nullptr);
    ASSERT_NE(predefined_attribute(MPI_LASTUSEDCODE), nullptr);
    EXPECT_GE(*predefined_attribute(MPI_LASTUSEDCODE), MPI_ERR_LASTCODE);
    EXPECT_EQ(predefined_attribute(MPI_LASTUSEDCODE + 1), nullptr);
    EXPECT_STREQ(predefined_keyval_name(MPI_UNIVERSE_SIZE), "MPI_UNIVERSE_SIZE");
    EXPECT_EQ(predefined_keyval_name(0), nullptr);
}

namespace {

int type_copy_plus_one(MPI_Datatype, int, void *extra, void *in, void *out, int *flag) {
    auto *c = static_cast<Counts *>(extra);
    ++c->copies;
    if (c->fail_copy) return c->fail_copy;
    *static_cast<void **>(out) = static_cast<char *>(in) + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

int type_count_delete(MPI_Datatype, int, void *value, void *extra) {
    auto *c = static_cast<Counts *>(extra);
    ++c->deletes;
    c->deleted.push_back(value);
    return c->fail_delete;
}

}  // namespace

TEST(MpiTypeAttributes, DupCopiesFreeDeletesAndKindsStayApart) {
    Counts c;
    const int k = keyvals().create<MPI_Datatype>(AttributeKind::Datatype, type_copy_plus_one, type_count_delete, &c);
    EXPECT_EQ(keyvals().find(k), nullptr) << "a datatype key is no communicator key";
    ASSERT_NE(keyvals().find(k, AttributeKind::Datatype), nullptr);
    Datatype *t = make_contiguous(2, MPI_INT);
    ASSERT_EQ(attribute_set(attribute_host(t), k, v(1)), MPI_SUCCESS);
    Datatype *d = nullptr;
    ASSERT_EQ(dup_type(t, &d), MPI_SUCCESS);
    EXPECT_EQ(c.copies, 1);
    void *got = nullptr;
    ASSERT_TRUE(attribute_get(*d->attributes, k, &got));
    EXPECT_EQ(got, static_cast<char *>(v(1)) + 1);
    // A second handle to d (as MPI_Type_get_contents gives out): the attributes stay with it.
    add_handle(d);
    EXPECT_EQ(free_type(d), MPI_SUCCESS);
    EXPECT_EQ(c.deletes, 0);
    EXPECT_EQ(free_type(d), MPI_SUCCESS);
    EXPECT_EQ(c.deleted, std::vector<void *>{static_cast<char *>(v(1)) + 1});
    // A failing copy: nothing made, no attribute left behind.
    c.fail_copy = 4242;
    Datatype *none = nullptr;
    EXPECT_EQ(dup_type(t, &none), 4242);
    EXPECT_EQ(none, nullptr);
    // A failing delete on free: its code, the handle stays (without its attributes).
    c.fail_delete = 777;
    EXPECT_EQ(free_type(t), 777);
    c.fail_delete = MPI_SUCCESS;
    EXPECT_EQ(c.deletes, 2);
    EXPECT_EQ(free_type(t), MPI_SUCCESS) << "the attributes went with the failed free";
    EXPECT_EQ(c.deletes, 2);
    keyvals().free_handle(k);
    EXPECT_EQ(keyvals().find(k, AttributeKind::Datatype), nullptr);
}

