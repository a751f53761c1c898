// MPI_Comm_spawn and MPI_Comm_spawn_multiple: the root's arguments are checked at the root and
// its verdict spread to the group; then the dpm module starts the children and builds the
// inter-communicator.
#include <string>
#include <vector>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/comm/comm_checks.h"
#include "mpi/dpm/dpm_api.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;
using plexus::mpi::dpm::InfoArrays;

namespace {

// The commands as the module takes them, with everything they point to kept alive.
struct Commands {
    std::vector<plexus_dpm_command_t> cmds;
    std::vector<InfoArrays> infos;
    std::vector<std::vector<const char *>> argvs;
};

int check_command(const char *fn, const Comm *comm, const char *command, int maxprocs, const Info *info,
                  const std::string &which) {
    if (!command)
        return report_errorf(comm, MPI_ERR_SPAWN, "%s: %scommand is NULL", fn, which.c_str());
    if (!*command)
        return report_errorf(comm, MPI_ERR_SPAWN, "%s: %scommand is empty", fn, which.c_str());
    if (maxprocs <= 0)
        return report_errorf(comm, MPI_ERR_SPAWN, "%s: %smaxprocs %d: at least one process must be started", fn,
                             which.c_str(), maxprocs);
    return dpm::check_info(fn, comm, info, (which + "info").c_str());
}

void add_command(Commands *c, char **argv, const Info *info) {
    c->infos.emplace_back();
    c->infos.back().fill(info);
    c->argvs.emplace_back();
    if (argv)
        for (char **a = argv; *a; ++a) c->argvs.back().push_back(*a);
    c->argvs.back().push_back(nullptr);
}

// After every add_command: the pointers into infos and argvs no longer move.
void finish(Commands *c, const std::vector<const char *> &commands, const std::vector<int> &maxprocs) {
    for (size_t i = 0; i < commands.size(); ++i) {
        plexus_dpm_command_t d{};
        d.struct_size = sizeof d;
        d.maxprocs = maxprocs[i];
        d.command = commands[i];
        d.argv = c->argvs[i].data();
        d.ninfo = static_cast<int>(c->infos[i].keys.size());
        d.info_keys = c->infos[i].key_ptrs.data();
        d.info_values = c->infos[i].value_ptrs.data();
        c->cmds.push_back(d);
    }
}

int spawn(const char *fn, Commands &c, int root, Comm *comm, MPI_Comm *intercomm, int *errcodes, int root_rc) {
    if (int rc = dpm::root_verdict(fn, comm, root, root_rc)) {
        *intercomm = MPI_COMM_NULL;
        return rc;
    }
    int rc = MPI_SUCCESS;
    plexus_dpm_module_t *m = dpm::module_or_report(fn, comm, &rc);
    if (!m) return rc;
    plexus_coll_comm_t *out = nullptr;
    const bool is_root = comm->rank == root;
    // The other parents wait while the root's children start: without waking 10,000 times a
    // second, taking the CPU the children need to start.
    dpm::LongWaits long_waits;
    rc = m->spawn(m, is_root ? static_cast<int>(c.cmds.size()) : 0, is_root ? c.cmds.data() : nullptr, root,
                  coll::handle(comm), &out, errcodes);
    return dpm::meeting_result(fn, comm, rc, out, intercomm, "the spawn failed");
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Comm_spawn)
int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                    MPI_Comm *intercomm, int array_of_errcodes[]) {
    constexpr const char *fn = "MPI_Comm_spawn";
    running(fn);
    if (int rc = check_intra(fn, comm, "comm")) return rc;
    if (int rc = check_local_rank(fn, comm, root, "root")) return rc;
    if (int rc = check_pointer(fn, comm, intercomm, "intercomm")) return rc;
    Commands c;
    int root_rc = MPI_SUCCESS;
    if (comm->rank == root) {
        root_rc = check_command(fn, comm, command, maxprocs, info, "");
        if (root_rc == MPI_SUCCESS) {
            add_command(&c, argv, info);
            finish(&c, {command}, {maxprocs});
        }
    }
    return spawn(fn, c, root, comm, intercomm, array_of_errcodes, root_rc);
}

PLEXUS_MPI_ALIAS(Comm_spawn_multiple)
int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm,
                             MPI_Comm *intercomm, int array_of_errcodes[]) {
    constexpr const char *fn = "MPI_Comm_spawn_multiple";
    running(fn);
    if (int rc = check_intra(fn, comm, "comm")) return rc;
    if (int rc = check_local_rank(fn, comm, root, "root")) return rc;
    if (int rc = check_pointer(fn, comm, intercomm, "intercomm")) return rc;
    Commands c;
    int root_rc = MPI_SUCCESS;
    if (comm->rank == root) {
        if (count <= 0)
            root_rc = report_errorf(comm, MPI_ERR_ARG, "%s: count %d: at least one command is needed", fn, count);
        else if (!array_of_commands || !array_of_maxprocs || !array_of_info)
            root_rc = report_errorf(comm, MPI_ERR_ARG, "%s: %s is NULL", fn,
                                    !array_of_commands ? "array_of_commands"
                                    : !array_of_maxprocs ? "array_of_maxprocs" : "array_of_info");
        std::vector<const char *> commands;
        std::vector<int> maxprocs;
        for (int i = 0; root_rc == MPI_SUCCESS && i < count; ++i) {
            const std::string which = "command " + std::to_string(i) + ": ";
            root_rc = check_command(fn, comm, array_of_commands[i], array_of_maxprocs[i], array_of_info[i], which);
            if (root_rc) break;
            add_command(&c, array_of_argv ? array_of_argv[i] : nullptr, array_of_info[i]);
            commands.push_back(array_of_commands[i]);
            maxprocs.push_back(array_of_maxprocs[i]);
        }
        if (root_rc == MPI_SUCCESS) finish(&c, commands, maxprocs);
    }
    return spawn(fn, c, root, comm, intercomm, array_of_errcodes, root_rc);
}

}  // extern "C"
