// One window of osc_sm: every member's memory and control block mapped into this process, and
// the epochs this process has open. Put, get and accumulate are copies into (out of) the target's
// memory; the synchronisation is atomics in the control blocks (sm_control.h), so no operation
// needs the target to call MPI.
#pragma once

#include <cstdarg>
#include <cstdint>
#include <vector>

#include <plexus/component.h>
#include <plexus/osc.h>
#include <plexus/shm.h>

#include "sm_control.h"
#include "sm_resources.h"
#include "sm_wait.h"

namespace plexus::osc_sm {

// What each member tells the others at creation (an allgather of these).
struct Card {
    int32_t pid;
    int32_t status;  // CardStatus
    int32_t win_fd;  // the memfd behind the window's memory (size > 0)
    int32_t ctl_fd;  // the memfd behind the control block
    uint64_t win_offset;
    uint64_t size;
    uint64_t ctl_offset;
    int32_t disp_unit;
    int32_t reserved;
};

enum CardStatus : int32_t { kCardOk = 0, kCardNotShareable = 1, kCardNoControl = 2, kCardNoMemory = 3 };

enum class Lock : uint8_t { kNone, kShared, kExclusive, kNoCheck };

class Window {
public:
    Window(const plexus_osc_scope_t &scope, const plexus_host_api_t *host, const plexus_component_t *self);
    Window(const Window &) = delete;
    Window &operator=(const Window &) = delete;

    int init(void **base);
    int free_window();

    int put(const void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp, int tcount,
            plexus_coll_dtype_t *ttype);
    int get(void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp, int tcount,
            plexus_coll_dtype_t *ttype);
    int accumulate(const void *origin, int ocount, plexus_coll_dtype_t *otype, int target, ptrdiff_t disp, int tcount,
                   plexus_coll_dtype_t *ttype, plexus_coll_op_t *op);

    int fence(int assert_bits);
    int start(int n, const int ranks[], int assert_bits);
    int complete();
    int post(int n, const int ranks[], int assert_bits);
    int wait();
    int test(int *flag);
    int lock(int lock_type, int target, int assert_bits);
    int unlock(int target);

private:
    struct Peer {
        uint8_t *base = nullptr;  // the member's window memory as mapped here
        uint64_t size = 0;
        int disp_unit = 1;
        ControlBlock *ctl = nullptr;
        PeerMap win_map, ctl_map;
        uint64_t posts_used = 0;  // posts of this target consumed by this origin's starts
        bool in_access = false;   // named by the open MPI_Win_start
        bool post_seen = false;   // its post for the open start has been used up
        Lock lock = Lock::kNone;
    };

    // window creation (sm_window.cc)
    Card my_card();
    int decline(const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 2, 3)))
#endif
        ;
    int attach_peers(const std::vector<Card> &cards);
    int attach(int r, const Card &c);

    // operations (sm_rma.cc)
    int locate(const char *call, int target, ptrdiff_t disp, int count, plexus_coll_dtype_t *type, uint8_t **addr,
               plexus_coll_dtype_info_t *info, bool *empty);
    int enter(const char *call, int target);

    // epochs (sm_epochs.cc)
    int wait_posted(Peer &p);
    bool all_completed() const;

    int fail(int cls, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 3, 4)))
#endif
        ;
    template <class Pred>
    int block_until(const char *call, Pred &&pred);

    const plexus_host_api_t *host_;
    const plexus_component_t *self_;
    const plexus_osc_services_t *svc_;
    const plexus_shm_services_t *shm_ = nullptr;
    plexus_osc_win_t *win_;
    plexus_coll_comm_t *comm_;
    int rank_;
    int size_;
    int flavor_;
    void *base_;
    uint64_t bytes_;
    int disp_unit_;

    AllocMem control_mem_;
    AllocMem window_mem_;  // ALLOCATE windows: the memory this module allocated
    ControlBlock *ctl_ = nullptr;
    std::vector<Peer> peers_;

    bool fence_open_ = false;    // after a fence that did not say NOSUCCEED
    bool access_open_ = false;   // between start and complete
    bool exposure_open_ = false; // between post and wait / a successful test
    int locks_held_ = 0;
    uint64_t completes_expected_ = 0;  // the running total MPI_Win_wait waits for
};

template <class Pred>
int Window::block_until(const char *call, Pred &&pred) {
    const int rc = wait_until(host_->progress_wait, pred);
    return rc == PLEXUS_SUCCESS ? PLEXUS_OSC_SUCCESS
                                : fail(PLEXUS_OSC_ERR_OTHER, "%s: waiting through the progress engine failed (%d)", call, rc);
}

}  // namespace plexus::osc_sm
