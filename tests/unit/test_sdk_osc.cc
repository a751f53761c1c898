// The SDK's osc module helper (plexus/sdk/osc_module.hpp): every MPI-2.2 entry point of the C
// module reaches the window member of the same name with the caller's arguments and returns its
// answer, the MPI-3 members stay NULL, exceptions become error classes, destroy deletes the
// window.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <plexus/osc.h>
#include <plexus/sdk/osc_module.hpp>

namespace {

// Records what each member was called with; each answers a code of its own.
struct FakeWindow {
    explicit FakeWindow(std::vector<std::string> *log, bool *gone) : log_(log), gone_(gone) {}
    ~FakeWindow() { *gone_ = true; }

    int init(void **base) {
        *base = this;
        return note("init", 1);
    }
    int free_window() { return note("free", 2); }
    int put(const void *o, int oc, plexus_coll_dtype_t *, int t, ptrdiff_t d, int tc, plexus_coll_dtype_t *) {
        if (oc < 0) throw std::bad_alloc();
        return note("put " + args(o, oc, t, d, tc), 3);
    }
    int get(void *o, int oc, plexus_coll_dtype_t *, int t, ptrdiff_t d, int tc, plexus_coll_dtype_t *) {
        if (oc < 0) throw std::runtime_error("broken");
        return note("get " + args(o, oc, t, d, tc), 4);
    }
    int accumulate(const void *o, int oc, plexus_coll_dtype_t *, int t, ptrdiff_t d, int tc, plexus_coll_dtype_t *,
                   plexus_coll_op_t *) {
        return note("acc " + args(o, oc, t, d, tc), 5);
    }
    int fence(int a) { return note("fence " + std::to_string(a), 6); }
    int start(int n, const int r[], int a) { return note("start " + group(n, r, a), 7); }
    int complete() { return note("complete", 8); }
    int post(int n, const int r[], int a) { return note("post " + group(n, r, a), 9); }
    int wait() { return note("wait", 10); }
    int test(int *flag) {
        *flag = 1;
        return note("test", 11);
    }
    int lock(int type, int t, int a) {
        return note("lock " + std::to_string(type) + " " + std::to_string(t) + " " + std::to_string(a), 12);
    }
    int unlock(int t) { return note("unlock " + std::to_string(t), 13); }

private:
    int note(const std::string &what, int rc) {
        log_->push_back(what);
        return rc;
    }
    static std::string args(const void *o, int oc, int t, ptrdiff_t d, int tc) {
        return std::to_string(reinterpret_cast<uintptr_t>(o) & 0xff) + " " + std::to_string(oc) + " " +
               std::to_string(t) + " " + std::to_string(d) + " " + std::to_string(tc);
    }
    static std::string group(int n, const int r[], int a) {
        std::string s = std::to_string(n) + ":";
        for (int i = 0; i < n; ++i) s += " " + std::to_string(r[i]);
        return s + " / " + std::to_string(a);
    }
    std::vector<std::string> *log_;
    bool *gone_;
};

TEST(SdkOscModule, EveryEntryPointReachesTheWindowMember) {
    std::vector<std::string> log;
    bool gone = false;
    auto *h = plexus::sdk::make_osc_module<FakeWindow>(&log, &gone);
    ASSERT_NE(h, nullptr);
    plexus_osc_module_t *m = &h->base;
    EXPECT_EQ(m->struct_size, sizeof(plexus_osc_module_t));
    EXPECT_EQ(m->major, PLEXUS_OSC_MAJOR);
    EXPECT_EQ(m->minor, PLEXUS_OSC_MINOR);

    alignas(16) unsigned char buf[64] = {};
    void *base = nullptr;
    const int ranks[] = {2, 5};
    int flag = 0;
    EXPECT_EQ(m->win_init(m, &base), 1);
    EXPECT_EQ(base, h->window.get());
    EXPECT_EQ(m->put(m, buf + 3, 7, nullptr, 1, 40, 8, nullptr), 3);
    EXPECT_EQ(m->get(m, buf + 4, 2, nullptr, 0, 9, 2, nullptr), 4);
    EXPECT_EQ(m->accumulate(m, buf + 5, 1, nullptr, 3, 0, 1, nullptr, nullptr), 5);
    EXPECT_EQ(m->fence(m, PLEXUS_OSC_MODE_NOPRECEDE), 6);
    EXPECT_EQ(m->start(m, 2, ranks, PLEXUS_OSC_MODE_NOCHECK), 7);
    EXPECT_EQ(m->complete(m), 8);
    EXPECT_EQ(m->post(m, 1, ranks + 1, 0), 9);
    EXPECT_EQ(m->wait(m), 10);
    EXPECT_EQ(m->test(m, &flag), 11);
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(m->lock(m, PLEXUS_OSC_LOCK_SHARED, 4, 0), 12);
    EXPECT_EQ(m->unlock(m, 4), 13);
    EXPECT_EQ(m->win_free(m), 2);
    const auto low = [&](int off) { return std::to_string((reinterpret_cast<uintptr_t>(buf) + off) & 0xff); };
    const std::vector<std::string> want = {
        "init", "put " + low(3) + " 7 1 40 8", "get " + low(4) + " 2 0 9 2", "acc " + low(5) + " 1 3 0 1",
        "fence 2", "start 2: 2 5 / 1", "complete", "post 1: 5 / 0", "wait", "test", "lock 2 4 0", "unlock 4", "free"};
    EXPECT_EQ(log, want);

    // MPI-3's members are the MPI layer's MPI_ERR_UNSUPPORTED_OPERATION.
    EXPECT_EQ(m->attach, nullptr);
    EXPECT_EQ(m->get_accumulate, nullptr);
    EXPECT_EQ(m->lock_all, nullptr);
    EXPECT_EQ(m->flush, nullptr);
    EXPECT_EQ(m->sync, nullptr);

    EXPECT_FALSE(gone);
    m->destroy(m);
    EXPECT_TRUE(gone);
}

TEST(SdkOscModule, ExceptionsBecomeErrorClasses) {
    std::vector<std::string> log;
    bool gone = false;
    auto *h = plexus::sdk::make_osc_module<FakeWindow>(&log, &gone);
    ASSERT_NE(h, nullptr);
    plexus_osc_module_t *m = &h->base;
    EXPECT_EQ(m->put(m, nullptr, -1, nullptr, 0, 0, 0, nullptr), PLEXUS_OSC_ERR_NO_MEM);
    EXPECT_EQ(m->get(m, nullptr, -1, nullptr, 0, 0, 0, nullptr), PLEXUS_OSC_ERR_INTERN);
    EXPECT_TRUE(log.empty());
    m->destroy(m);
    EXPECT_TRUE(gone);
}

}  // namespace
