#!/bin/bash
# xray case 'basic_threads' (generated): basic mode (log version 3) of the program of
# ../fdr_threads (threads.cpp, the same copy here): three threads, thread_buffer_size=8 so
# the threads' records are flushed in interleaved chunks, func_duration_threshold_us=0.
# Basic mode has no custom-event handler: the __xray_customevent calls write nothing.
D=$(dirname "$(readlink -f "$0")")
CASE_DIR="$D" MODE=xray-basic INIT=func_duration_threshold_us=0:thread_buffer_size=8 exec bash "$D/../fdr_threads/produce.sh"
