#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for the pool's Slurm test (test/integration/pool/pool-slurm.test.ts):
# `repairlab pool up --slurm` submits runners as jobs to it. Safe to run again: it only does what is missing.
#
# On Debian as root it installs slurm-wlm and munge when missing, writes its own configuration under
# /var/lib/repairlab-slurm (the system's /etc/slurm is left alone: callers export SLURM_CONF, printed on the last line),
# and starts munged, slurmctld and slurmd (proctrack/linuxproc, task/none: no cgroup or systemd needed). The node has
# this machine's CPU count. `scripts/slurm-cluster.sh stop` stops the daemons it started.
#
# Exit status: 0 when `sinfo` shows the node idle; 3 when a cluster cannot be had here (said why on stderr), so the
# caller can report the Slurm test as NOT RUN; anything else is a failure.
set -uo pipefail
DIR=/var/lib/repairlab-slurm
CONF=$DIR/slurm.conf
export SLURM_CONF=$CONF
unavailable() { echo "slurm-cluster: $1" >&2; exit 3; }

if [ "${1:-}" = stop ]; then
  for p in slurmd slurmctld; do [ -f "$DIR/$p.pid" ] && kill "$(cat "$DIR/$p.pid")" 2>/dev/null; done
  exit 0
fi

[ "$(id -u)" = 0 ] || unavailable "starting a Slurm cluster needs root"
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || unavailable "Slurm is not installed and there is no apt-get to install slurm-wlm"
  echo "slurm-cluster: installing slurm-wlm and munge" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null 2>&1 || unavailable "apt-get could not install slurm-wlm munge"
fi
mkdir -p "$DIR/state" "$DIR/spool"
cpus=$(nproc)
# the memory Slurm may hand out (sbatch --mem): this machine's, less a tenth for everything else
memory=$(awk '/MemTotal/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
cat >"$CONF.new" <<CONF
ClusterName=repairlab
SlurmctldHost=localhost
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=localhost CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
changed=1; cmp -s "$CONF.new" "$CONF" && changed=0
mv "$CONF.new" "$CONF"

alive() { [ -f "$DIR/$1.pid" ] && kill -0 "$(cat "$DIR/$1.pid")" 2>/dev/null; }
if ! pgrep -x munged >/dev/null; then
  mkdir -p /run/munge && chown munge: /run/munge
  [ -f /etc/munge/munge.key ] || unavailable "munge has no key (/etc/munge/munge.key); reinstall munge"
  runuser -u munge -- munged || unavailable "munged did not start"
fi
# a changed configuration (another machine's size) needs the daemons started again
if [ $changed = 1 ]; then for p in slurmd slurmctld; do alive $p && kill "$(cat "$DIR/$p.pid")"; done; sleep 1; fi
alive slurmctld || { slurmctld -f "$CONF" >>"$DIR/start.log" 2>&1 || unavailable "slurmctld did not start (see $DIR/slurmctld.log)"; }
alive slurmd || { slurmd -f "$CONF" -N localhost >>"$DIR/start.log" 2>&1 || unavailable "slurmd did not start (see $DIR/slurmd.log)"; }
for _ in $(seq 1 30); do
  state=$(sinfo -h -N -o %t 2>/dev/null | head -1)
  case $state in idle|mix|alloc) break ;; esac
  sleep 1
done
case $state in idle|mix|alloc) ;; *) unavailable "the node is not up after 30 s (sinfo: '${state:-no answer}'; see $DIR/slurmctld.log)" ;; esac
echo "slurm-cluster: ready (Slurm $(sinfo -V | awk '{print $2}'), node localhost with $cpus CPUs, $memory MB)" >&2
echo "SLURM_CONF=$CONF"
