/* SPDX-License-Identifier: MIT */
/* otf2_skip.h - the OTF2 event records slog2-build does not draw, as one
 * table: each row names the record (as otf2-print does), the family the
 * summary lists it under, and the types of its fields after the common
 * ones (location, time, position, user data, attributes), so that
 * otf2_read.c can make a counting callback of the exact type libotf2
 * expects for each. Generated once from OTF2 3.0's
 * OTF2_EvtReaderCallbacks.h; a record added by a later OTF2 reaches the
 * Unknown callback, which counts it too.
 *
 * X(Name, "RECORD_NAME", "family", (, field types... f1)) */
#ifndef SLOG2_OTF2_SKIP_H
#define SLOG2_OTF2_SKIP_H

#define OTF2_SKIPPED_RECORDS(X)                                                                                       \
    X(BufferFlush, "BUFFER_FLUSH", "measurement", (, OTF2_TimeStamp f1))                                              \
    X(MeasurementOnOff, "MEASUREMENT_ON_OFF", "measurement", (, OTF2_MeasurementMode f1))                             \
    X(OmpFork, "OMP_FORK", "threading", (, uint32_t f1))                                                              \
    X(OmpJoin, "OMP_JOIN", "threading", ())                                                                           \
    X(OmpAcquireLock, "OMP_ACQUIRE_LOCK", "threading", (, uint32_t f1, uint32_t f2))                                  \
    X(OmpReleaseLock, "OMP_RELEASE_LOCK", "threading", (, uint32_t f1, uint32_t f2))                                  \
    X(OmpTaskCreate, "OMP_TASK_CREATE", "threading", (, uint64_t f1))                                                 \
    X(OmpTaskSwitch, "OMP_TASK_SWITCH", "threading", (, uint64_t f1))                                                 \
    X(OmpTaskComplete, "OMP_TASK_COMPLETE", "threading", (, uint64_t f1))                                             \
    X(Metric, "METRIC", "metric", (, OTF2_MetricRef f1, uint8_t f2, const OTF2_Type *f3, const OTF2_MetricValue *f4)) \
    X(ParameterString, "PARAMETER_STRING", "parameter", (, OTF2_ParameterRef f1, OTF2_StringRef f2))                  \
    X(ParameterInt, "PARAMETER_INT", "parameter", (, OTF2_ParameterRef f1, int64_t f2))                               \
    X(ParameterUnsignedInt, "PARAMETER_UNSIGNED_INT", "parameter", (, OTF2_ParameterRef f1, uint64_t f2))             \
    X(RmaWinCreate, "RMA_WIN_CREATE", "RMA", (, OTF2_RmaWinRef f1))                                                   \
    X(RmaWinDestroy, "RMA_WIN_DESTROY", "RMA", (, OTF2_RmaWinRef f1))                                                 \
    X(RmaCollectiveBegin, "RMA_COLLECTIVE_BEGIN", "RMA", ())                                                          \
    X(RmaCollectiveEnd, "RMA_COLLECTIVE_END", "RMA",                                                                  \
      (, OTF2_CollectiveOp f1, OTF2_RmaSyncLevel f2, OTF2_RmaWinRef f3, uint32_t f4, uint64_t f5, uint64_t f6))       \
    X(RmaGroupSync, "RMA_GROUP_SYNC", "RMA", (, OTF2_RmaSyncLevel f1, OTF2_RmaWinRef f2, OTF2_GroupRef f3))           \
    X(RmaRequestLock, "RMA_REQUEST_LOCK", "RMA", (, OTF2_RmaWinRef f1, uint32_t f2, uint64_t f3, OTF2_LockType f4))   \
    X(RmaAcquireLock, "RMA_ACQUIRE_LOCK", "RMA", (, OTF2_RmaWinRef f1, uint32_t f2, uint64_t f3, OTF2_LockType f4))   \
    X(RmaTryLock, "RMA_TRY_LOCK", "RMA", (, OTF2_RmaWinRef f1, uint32_t f2, uint64_t f3, OTF2_LockType f4))           \
    X(RmaReleaseLock, "RMA_RELEASE_LOCK", "RMA", (, OTF2_RmaWinRef f1, uint32_t f2, uint64_t f3))                     \
    X(RmaSync, "RMA_SYNC", "RMA", (, OTF2_RmaWinRef f1, uint32_t f2, OTF2_RmaSyncType f3))                            \
    X(RmaWaitChange, "RMA_WAIT_CHANGE", "RMA", (, OTF2_RmaWinRef f1))                                                 \
    X(RmaPut, "RMA_PUT", "RMA", (, OTF2_RmaWinRef f1, uint32_t f2, uint64_t f3, uint64_t f4))                         \
    X(RmaGet, "RMA_GET", "RMA", (, OTF2_RmaWinRef f1, uint32_t f2, uint64_t f3, uint64_t f4))                         \
    X(RmaAtomic, "RMA_ATOMIC", "RMA",                                                                                 \
      (, OTF2_RmaWinRef f1, uint32_t f2, OTF2_RmaAtomicType f3, uint64_t f4, uint64_t f5, uint64_t f6))               \
    X(RmaOpCompleteBlocking, "RMA_OP_COMPLETE_BLOCKING", "RMA", (, OTF2_RmaWinRef f1, uint64_t f2))                   \
    X(RmaOpCompleteNonBlocking, "RMA_OP_COMPLETE_NON_BLOCKING", "RMA", (, OTF2_RmaWinRef f1, uint64_t f2))            \
    X(RmaOpTest, "RMA_OP_TEST", "RMA", (, OTF2_RmaWinRef f1, uint64_t f2))                                            \
    X(RmaOpCompleteRemote, "RMA_OP_COMPLETE_REMOTE", "RMA", (, OTF2_RmaWinRef f1, uint64_t f2))                       \
    X(ThreadFork, "THREAD_FORK", "threading", (, OTF2_Paradigm f1, uint32_t f2))                                      \
    X(ThreadJoin, "THREAD_JOIN", "threading", (, OTF2_Paradigm f1))                                                   \
    X(ThreadTeamBegin, "THREAD_TEAM_BEGIN", "threading", (, OTF2_CommRef f1))                                         \
    X(ThreadTeamEnd, "THREAD_TEAM_END", "threading", (, OTF2_CommRef f1))                                             \
    X(ThreadAcquireLock, "THREAD_ACQUIRE_LOCK", "threading", (, OTF2_Paradigm f1, uint32_t f2, uint32_t f3))          \
    X(ThreadReleaseLock, "THREAD_RELEASE_LOCK", "threading", (, OTF2_Paradigm f1, uint32_t f2, uint32_t f3))          \
    X(ThreadTaskCreate, "THREAD_TASK_CREATE", "threading", (, OTF2_CommRef f1, uint32_t f2, uint32_t f3))             \
    X(ThreadTaskSwitch, "THREAD_TASK_SWITCH", "threading", (, OTF2_CommRef f1, uint32_t f2, uint32_t f3))             \
    X(ThreadTaskComplete, "THREAD_TASK_COMPLETE", "threading", (, OTF2_CommRef f1, uint32_t f2, uint32_t f3))         \
    X(ThreadCreate, "THREAD_CREATE", "threading", (, OTF2_CommRef f1, uint64_t f2))                                   \
    X(ThreadBegin, "THREAD_BEGIN", "threading", (, OTF2_CommRef f1, uint64_t f2))                                     \
    X(ThreadWait, "THREAD_WAIT", "threading", (, OTF2_CommRef f1, uint64_t f2))                                       \
    X(ThreadEnd, "THREAD_END", "threading", (, OTF2_CommRef f1, uint64_t f2))                                         \
    X(CallingContextEnter, "CALLING_CONTEXT_ENTER", "sampling", (, OTF2_CallingContextRef f1, uint32_t f2))           \
    X(CallingContextLeave, "CALLING_CONTEXT_LEAVE", "sampling", (, OTF2_CallingContextRef f1))                        \
    X(CallingContextSample, "CALLING_CONTEXT_SAMPLE", "sampling",                                                     \
      (, OTF2_CallingContextRef f1, uint32_t f2, OTF2_InterruptGeneratorRef f3))                                      \
    X(IoCreateHandle, "IO_CREATE_HANDLE", "I/O",                                                                      \
      (, OTF2_IoHandleRef f1, OTF2_IoAccessMode f2, OTF2_IoCreationFlag f3, OTF2_IoStatusFlag f4))                    \
    X(IoDestroyHandle, "IO_DESTROY_HANDLE", "I/O", (, OTF2_IoHandleRef f1))                                           \
    X(IoDuplicateHandle, "IO_DUPLICATE_HANDLE", "I/O",                                                                \
      (, OTF2_IoHandleRef f1, OTF2_IoHandleRef f2, OTF2_IoStatusFlag f3))                                             \
    X(IoSeek, "IO_SEEK", "I/O", (, OTF2_IoHandleRef f1, int64_t f2, OTF2_IoSeekOption f3, uint64_t f4))               \
    X(IoChangeStatusFlags, "IO_CHANGE_STATUS_FLAGS", "I/O", (, OTF2_IoHandleRef f1, OTF2_IoStatusFlag f2))            \
    X(IoDeleteFile, "IO_DELETE_FILE", "I/O", (, OTF2_IoParadigmRef f1, OTF2_IoFileRef f2))                            \
    X(IoOperationBegin, "IO_OPERATION_BEGIN", "I/O",                                                                  \
      (, OTF2_IoHandleRef f1, OTF2_IoOperationMode f2, OTF2_IoOperationFlag f3, uint64_t f4, uint64_t f5))            \
    X(IoOperationTest, "IO_OPERATION_TEST", "I/O", (, OTF2_IoHandleRef f1, uint64_t f2))                              \
    X(IoOperationIssued, "IO_OPERATION_ISSUED", "I/O", (, OTF2_IoHandleRef f1, uint64_t f2))                          \
    X(IoOperationComplete, "IO_OPERATION_COMPLETE", "I/O", (, OTF2_IoHandleRef f1, uint64_t f2, uint64_t f3))         \
    X(IoOperationCancelled, "IO_OPERATION_CANCELLED", "I/O", (, OTF2_IoHandleRef f1, uint64_t f2))                    \
    X(IoAcquireLock, "IO_ACQUIRE_LOCK", "I/O", (, OTF2_IoHandleRef f1, OTF2_LockType f2))                             \
    X(IoReleaseLock, "IO_RELEASE_LOCK", "I/O", (, OTF2_IoHandleRef f1, OTF2_LockType f2))                             \
    X(IoTryLock, "IO_TRY_LOCK", "I/O", (, OTF2_IoHandleRef f1, OTF2_LockType f2))                                     \
    X(ProgramBegin, "PROGRAM_BEGIN", "program", (, OTF2_StringRef f1, uint32_t f2, const OTF2_StringRef *f3))         \
    X(ProgramEnd, "PROGRAM_END", "program", (, int64_t f1))                                                           \
    X(NonBlockingCollectiveRequest, "NON_BLOCKING_COLLECTIVE_REQUEST", "collective", (, uint64_t f1))                 \
    X(NonBlockingCollectiveComplete, "NON_BLOCKING_COLLECTIVE_COMPLETE", "collective",                                \
      (, OTF2_CollectiveOp f1, OTF2_CommRef f2, uint32_t f3, uint64_t f4, uint64_t f5, uint64_t f6))                  \
    X(CommCreate, "COMM_CREATE", "communicator", (, OTF2_CommRef f1))                                                 \
    X(CommDestroy, "COMM_DESTROY", "communicator", (, OTF2_CommRef f1))

#endif
