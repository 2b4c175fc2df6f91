/* Names of OpenCL error codes, from one X-macro list (hashcat's CLERR idea). */
#include "core/clerr.h"
#include <stdio.h>

#define CG_CL_ERRORS(X)                                                                                      \
    X(CL_SUCCESS)                                                                                            \
    X(CL_DEVICE_NOT_FOUND)                                                                                   \
    X(CL_DEVICE_NOT_AVAILABLE)                                                                               \
    X(CL_COMPILER_NOT_AVAILABLE)                                                                             \
    X(CL_MEM_OBJECT_ALLOCATION_FAILURE)                                                                      \
    X(CL_OUT_OF_RESOURCES)                                                                                   \
    X(CL_OUT_OF_HOST_MEMORY)                                                                                 \
    X(CL_PROFILING_INFO_NOT_AVAILABLE)                                                                       \
    X(CL_MEM_COPY_OVERLAP)                                                                                   \
    X(CL_IMAGE_FORMAT_MISMATCH)                                                                              \
    X(CL_IMAGE_FORMAT_NOT_SUPPORTED)                                                                         \
    X(CL_BUILD_PROGRAM_FAILURE)                                                                              \
    X(CL_MAP_FAILURE)                                                                                        \
    X(CL_MISALIGNED_SUB_BUFFER_OFFSET)                                                                       \
    X(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)                                                          \
    X(CL_COMPILE_PROGRAM_FAILURE)                                                                            \
    X(CL_LINKER_NOT_AVAILABLE)                                                                               \
    X(CL_LINK_PROGRAM_FAILURE)                                                                               \
    X(CL_DEVICE_PARTITION_FAILED)                                                                            \
    X(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)                                                                      \
    X(CL_INVALID_VALUE)                                                                                      \
    X(CL_INVALID_DEVICE_TYPE)                                                                                \
    X(CL_INVALID_PLATFORM)                                                                                   \
    X(CL_INVALID_DEVICE)                                                                                     \
    X(CL_INVALID_CONTEXT)                                                                                    \
    X(CL_INVALID_QUEUE_PROPERTIES)                                                                           \
    X(CL_INVALID_COMMAND_QUEUE)                                                                              \
    X(CL_INVALID_HOST_PTR)                                                                                   \
    X(CL_INVALID_MEM_OBJECT)                                                                                 \
    X(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)                                                                    \
    X(CL_INVALID_IMAGE_SIZE)                                                                                 \
    X(CL_INVALID_SAMPLER)                                                                                    \
    X(CL_INVALID_BINARY)                                                                                     \
    X(CL_INVALID_BUILD_OPTIONS)                                                                              \
    X(CL_INVALID_PROGRAM)                                                                                    \
    X(CL_INVALID_PROGRAM_EXECUTABLE)                                                                         \
    X(CL_INVALID_KERNEL_NAME)                                                                                \
    X(CL_INVALID_KERNEL_DEFINITION)                                                                          \
    X(CL_INVALID_KERNEL)                                                                                     \
    X(CL_INVALID_ARG_INDEX)                                                                                  \
    X(CL_INVALID_ARG_VALUE)                                                                                  \
    X(CL_INVALID_ARG_SIZE)                                                                                   \
    X(CL_INVALID_KERNEL_ARGS)                                                                                \
    X(CL_INVALID_WORK_DIMENSION)                                                                             \
    X(CL_INVALID_WORK_GROUP_SIZE)                                                                            \
    X(CL_INVALID_WORK_ITEM_SIZE)                                                                             \
    X(CL_INVALID_GLOBAL_OFFSET)                                                                              \
    X(CL_INVALID_EVENT_WAIT_LIST)                                                                            \
    X(CL_INVALID_EVENT)                                                                                      \
    X(CL_INVALID_OPERATION)                                                                                  \
    X(CL_INVALID_GL_OBJECT)                                                                                  \
    X(CL_INVALID_BUFFER_SIZE)                                                                                \
    X(CL_INVALID_MIP_LEVEL)                                                                                  \
    X(CL_INVALID_GLOBAL_WORK_SIZE)                                                                           \
    X(CL_INVALID_PROPERTY)                                                                                   \
    X(CL_INVALID_IMAGE_DESCRIPTOR)                                                                           \
    X(CL_INVALID_COMPILER_OPTIONS)                                                                           \
    X(CL_INVALID_LINKER_OPTIONS)                                                                             \
    X(CL_INVALID_DEVICE_PARTITION_COUNT)

/* The ICD loader's "no platform" code (cl_khr_icd), not in every header version. */
#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

const char *cg_cl_strerror(cl_int err)
{
    static _Thread_local char unknown[40];
#define CG_CLERR_CASE(name)                                                                                  \
    case name:                                                                                               \
        return #name;
    switch (err) {
        CG_CL_ERRORS(CG_CLERR_CASE)
    case CL_PLATFORM_NOT_FOUND_KHR:
        return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
        snprintf(unknown, sizeof unknown, "CL_UNKNOWN_ERROR(%d)", (int)err);
        return unknown;
    }
#undef CG_CLERR_CASE
}
