// The table behind win_handles.h: slot i holds the window numbered i + 1. Numbers of freed
// windows are reused, as Fortran handles of freed objects are undefined in MPI.
#include "mpi/osc/win_handles.h"

#include <vector>

namespace plexus::mpi {
namespace {

std::vector<Win *> &table() {
    static std::vector<Win *> slots;
    return slots;
}

}  // namespace

void win_register(Win *win) {
    std::vector<Win *> &t = table();
    size_t i = 0;
    while (i < t.size() && t[i]) ++i;
    if (i == t.size()) t.push_back(nullptr);
    t[i] = win;
    win->fortran = static_cast<MPI_Fint>(i + 1);
}

void win_unregister(Win *win) {
    std::vector<Win *> &t = table();
    const size_t i = static_cast<size_t>(win->fortran) - 1;
    if (win->fortran > 0 && i < t.size() && t[i] == win) t[i] = nullptr;
    win->fortran = 0;
}

bool win_valid(const Win *w) {
    if (!w) return false;
    for (const Win *live : table())
        if (live == w) return w->magic == Win::kMagic;
    return false;
}

Win *win_of_fortran(MPI_Fint number) {
    const std::vector<Win *> &t = table();
    if (number <= 0 || static_cast<size_t>(number) > t.size()) return MPI_WIN_NULL;
    return t[static_cast<size_t>(number) - 1];
}

}  // namespace plexus::mpi
