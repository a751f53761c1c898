# The PML: matching, eager and rendezvous protocols (part of libmpi).
framework_mpi_libmpi_la_SOURCES += \
	framework/mpi/pml/pml.h framework/mpi/pml/pml_impl.h framework/mpi/pml/pml_protocol.h \
	framework/mpi/pml/intrusive_list.h framework/mpi/pml/match_queues.h framework/mpi/pml/match_queues.cc \
	framework/mpi/pml/pml.cc framework/mpi/pml/pml_send.cc framework/mpi/pml/pml_recv.cc \
	framework/mpi/pml/pml_rendezvous.cc framework/mpi/pml/pml_put_rest.cc framework/mpi/pml/pml_cancel.cc \
	framework/mpi/pml/pml_typed.h framework/mpi/pml/pml_typed.cc
